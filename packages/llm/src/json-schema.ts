import { z } from 'zod';

type Json = Record<string, unknown>;

const DROPPED = new Set(['minItems', 'maxItems', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'format']);

function strictify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictify);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    // Validation keywords some OpenAI-compatible servers refuse in strict mode; zod checks them instead.
    if (key === '$schema' || DROPPED.has(key)) continue;
    out[key] = strictify(value);
  }
  // OpenAI's strict mode: every object closed and every property required.
  if (out.type === 'object' && out.properties && typeof out.properties === 'object') {
    out.additionalProperties = false;
    out.required = Object.keys(out.properties as Json);
  }
  return out;
}

const cache = new WeakMap<z.ZodType, Json>();

/** The JSON Schema sent as response_format.json_schema.schema, generated from the zod schema (zod 4). */
export function jsonSchemaOf(schema: z.ZodType): Json {
  let json = cache.get(schema);
  if (!json) {
    json = strictify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as Json;
    cache.set(schema, json);
  }
  return json;
}
