//! A typed component, the shape Wassette serves: no MCP contract, only
//! exported functions, which the host lists as tools with schemas derived
//! from their WIT types. The tests call each kind of value through it.

wit_bindgen::generate!({ path: "wit", world: "typed" });

use exports::local::typed::shapes::{Access, Color, Point, Shape};

struct Typed;

impl Guest for Typed {
    fn echo(text: String) -> String {
        text
    }

    fn read_file(path: String) -> Result<String, String> {
        std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))
    }
}

impl exports::local::typed::shapes::Guest for Typed {
    fn add(a: i32, b: i32) -> i32 {
        a.wrapping_add(b)
    }

    fn shift(p: Point, by: (i32, i32)) -> Point {
        Point { x: p.x + by.0, y: p.y + by.1 }
    }

    fn area(s: Shape) -> f64 {
        match s {
            Shape::Circle(r) => std::f64::consts::PI * r * r,
            Shape::Square(side) => side * side,
            Shape::Dot => 0.0,
        }
    }

    fn name_of(c: Color) -> String {
        match c {
            Color::Red => "red",
            Color::Green => "green",
            Color::Blue => "blue",
        }
        .to_string()
    }

    fn grant(a: Access) -> Access {
        // Whatever is asked, execution is never granted.
        a - Access::EXEC
    }

    fn first(items: Vec<String>) -> Option<String> {
        items.into_iter().next()
    }

    fn divide(a: f64, b: f64) -> Result<f64, String> {
        if b == 0.0 { Err("division by zero".into()) } else { Ok(a / b) }
    }

    fn greet(name: Option<String>) -> String {
        format!("Hello, {}!", name.as_deref().unwrap_or("stranger"))
    }

    fn count_bytes(data: Vec<u8>) -> u64 {
        data.len() as u64
    }

    fn code_of(c: char) -> u32 {
        c as u32
    }

    fn nothing() {}

    fn crash() {
        unreachable!("the crash tool traps")
    }
}

export!(Typed);
