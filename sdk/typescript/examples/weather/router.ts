// An MCP server with tools (one with structured output, one that talks back
// to the client), a resource, a resource template and a prompt.
//
//   npx mcp-wit-build router.ts -o router.wasm
//   mcp-wit serve router.wasm
import { Router, z } from '@mcp-wit/sdk';

const app = new Router({ name: 'weather', instructions: 'Forecasts for cities.' });

const stations = [
  { id: 'OSL', city: 'Oslo' },
  { id: 'LIS', city: 'Lisbon' },
];

/** Completes a city name from the stations' cities. */
function cities(typed: string): string[] {
  return stations.map((s) => s.city).filter((city) => city.toLowerCase().startsWith(typed.toLowerCase()));
}

function forecastFor(city: string) {
  // A JS throw is a tool error carrying its message; it never traps the instance.
  if (city === 'Atlantis') throw new Error(`no forecast for ${city}: the city is under water`);
  const temperature = [...city].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 30;
  return { city, temperature, conditions: temperature > 15 ? 'sunny' : 'cloudy' };
}

app.tool(
  'forecast',
  {
    title: 'Forecast',
    description: 'Forecast for a city',
    inputSchema: { city: z.string().describe('The city') },
    outputSchema: { city: z.string(), temperature: z.number(), conditions: z.enum(['sunny', 'cloudy']) },
    annotations: { readOnlyHint: true },
  },
  ({ city }) => {
    const forecast = forecastFor(city);
    return { structuredContent: forecast };
  },
);

app.tool(
  'plan_trip',
  {
    description: 'Plans a trip to a city, asking the user for the number of days',
    inputSchema: { city: z.string().describe('Where to go') },
  },
  ({ city }, ctx) => {
    ctx.progress(0, 2, 'asking for the dates');
    const answer = ctx.elicit(`How many days in ${city}?`, { days: z.number().int().min(1).describe('Days') });
    ctx.progress(1, 2, 'planning');
    if (answer.action !== 'accept') return `No trip to ${city}: the user chose ${answer.action}.`;
    ctx.log('info', { planned: city, days: answer.content.days });
    ctx.progress(2, 2);
    const { conditions } = forecastFor(city);
    return `${answer.content.days} days in ${city}, ${conditions}.`;
  },
);

app.tool(
  'echo',
  { description: 'Echoes the text back', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
  ({ text }) => ({ content: [{ type: 'text', text }] }),
);

app.resource('stations', 'weather://stations', { description: 'The weather stations', mimeType: 'application/json' }, (uri) => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(stations) }],
}));

app.resourceTemplate(
  'city',
  'weather://city/{name}',
  { description: "A city's current weather", mimeType: 'application/json', complete: { name: cities } },
  (uri, { name }) => JSON.stringify(forecastFor(name!)),
);

app.prompt(
  'plan',
  {
    description: 'Plan a day out',
    argsSchema: { city: z.string().describe('The city'), mood: z.string().optional() },
    complete: { city: cities },
  },
  ({ city, mood }) => ({
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: `Plan a ${mood ?? 'pleasant'} day out in ${city}, given: ${JSON.stringify(forecastFor(city))}` },
      },
    ],
  }),
);

export const { router, extension, presentation } = app.exports();
