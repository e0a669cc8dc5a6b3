# Shared by the scripts in .ci/ (sourced, not run).
#
# Tools the tests and CI install (Node 22, the conformance suites, the
# Python venvs, mdBook, planus) live in one cache outside the clone, so a
# second clone or a `cargo clean` finds them: $MCP_WIT_TOOLS, by default
# ${XDG_CACHE_HOME:-~/.cache}/mcp-wit-tools. The tests compute the same
# default (`mcp_wit_tests::support::tools_dir`).

MCP_WIT_TOOLS=${MCP_WIT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-wit-tools}
export MCP_WIT_TOOLS
mkdir -p "$MCP_WIT_TOOLS"

# The Node major version the conformance suite needs (it runs on >= 22).
NODE_MAJOR=22

# Runs COMMAND under an exclusive lock on the file LOCK: two runs at once
# (two clones, or a script beside `cargo test`, which takes the same locks)
# install a tool once.
with_lock() { # LOCK COMMAND...
  local lock=$1
  shift
  mkdir -p "$(dirname "$lock")"
  (
    flock 9
    "$@"
  ) 9>"$lock"
}

node_is_recent() { "$1" -e "process.exit(+process.versions.node.split('.')[0] >= $NODE_MAJOR ? 0 : 1)" 2>/dev/null; }

# Node >= $NODE_MAJOR: the one on PATH, else the npm registry's
# node-linux-<arch>@$NODE_MAJOR in the cache, linked as $MCP_WIT_TOOLS/bin/node.
# Prints the path of the node to use.
install_node() {
  if node_is_recent node; then
    command -v node
    return
  fi
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "no Node $NODE_MAJOR package for $(uname -m): install Node $NODE_MAJOR or later" >&2; return 1 ;;
  esac
  local node=$MCP_WIT_TOOLS/node/node_modules/node-linux-$arch/bin/node
  if ! node_is_recent "$node"; then
    echo "tools: installing Node $NODE_MAJOR (node-linux-$arch) from the npm registry" >&2
    npm install --prefix "$MCP_WIT_TOOLS/node" --no-audit --no-fund --loglevel=error "node-linux-$arch@$NODE_MAJOR" >&2
  fi
  node_is_recent "$node" || { echo "$node is not Node >= $NODE_MAJOR" >&2; return 1; }
  mkdir -p "$MCP_WIT_TOOLS/bin"
  ln -sf "$node" "$MCP_WIT_TOOLS/bin/node"
  echo "$MCP_WIT_TOOLS/bin/node"
}

# A venv at DIR holding REQUIREMENTS (a pip requirements file), rebuilt only
# when the file's content changes (its copy is the marker).
install_venv() { # DIR REQUIREMENTS
  local dir=$1 requirements=$2
  mkdir -p "$dir"
  if ! cmp -s "$requirements" "$dir/.installed"; then
    echo "tools: installing $requirements into $dir" >&2
    python3 -m venv --clear "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
    cp "$requirements" "$dir/.installed"
  fi
}

# `cargo install CRATE@VERSION` into the cache (its own root per crate),
# once per version. Prints the binary's path.
install_crate() { # CRATE VERSION BINARY [CARGO-INSTALL-ARGS...]
  local crate=$1 version=$2 binary=$3
  shift 3
  local root=$MCP_WIT_TOOLS/cargo/$crate
  # cargo notes what it installed in the root's .crates.toml.
  if [[ ! -x $root/bin/$binary ]] || ! grep -q "\"$crate $version " "$root/.crates.toml" 2>/dev/null; then
    echo "tools: installing $crate $version" >&2
    cargo install --quiet --locked --version "$version" --root "$root" "$@" "$crate" >&2
  fi
  echo "$root/bin/$binary"
}

# Wall time of each step. The first script of a run that calls
# `step_times_begin` owns the record ($STEP_TIMES_FILE, inherited by the
# scripts it runs, whose steps join it) and prints it as a table when it
# exits, failing or not, so a run always says where its time went.
step_times_begin() {
  if [[ -z ${STEP_TIMES_FILE:-} ]]; then
    STEP_TIMES_FILE=$(mktemp)
    STEP_TIMES_STARTED=$(date +%s)
    export STEP_TIMES_FILE
    trap 'status=$?; print_step_times; rm -f "$STEP_TIMES_FILE"; exit $status' EXIT
  fi
}
step() { # NAME COMMAND...
  local name=$1 started status=0 seconds
  shift
  started=$(date +%s)
  printf '\n== %s\n' "$name" >&2
  "$@" || status=$?
  seconds=$(($(date +%s) - started))
  [[ -z ${STEP_TIMES_FILE:-} ]] || printf '%s|%s|%s\n' "$name" "$seconds" "$status" >>"$STEP_TIMES_FILE"
  printf '== %s: %d min %02d s%s\n' "$name" $((seconds / 60)) $((seconds % 60)) \
    "$([[ $status -eq 0 ]] || echo " (FAILED, exit $status)")" >&2
  return "$status"
}
print_step_times() {
  [[ -s ${STEP_TIMES_FILE:-} ]] || return 0
  local name seconds status wall=$(($(date +%s) - STEP_TIMES_STARTED))
  printf '\n| step | wall time | result |\n| --- | ---: | --- |\n' >&2
  while IFS='|' read -r name seconds status; do
    printf '| %s | %d:%02d | %s |\n' "$name" $((seconds / 60)) $((seconds % 60)) \
      "$([[ $status -eq 0 ]] && echo ok || echo "failed ($status)")" >&2
  done <"$STEP_TIMES_FILE"
  printf '| **total** | **%d:%02d** | |\n' $((wall / 60)) $((wall % 60)) >&2
}
