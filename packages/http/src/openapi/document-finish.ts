/**
 * What the generated OpenAPI document lacks for clients that generate code from it and for `redocly lint`: an
 * `operationId` on every operation (the names generated clients give their methods), the servers, the licence,
 * request bodies written out (inlineRequestBodies), and `nullable` only beside a `type` (OpenAPI 3.0 ignores it elsewhere, and ajv refuses to compile such a schema).
 */

/** Every operation's id, by `METHOD path`: one table, so that names stay consistent; a route missing here fails. */
const OPERATION_IDS: Readonly<Record<string, string>> = {
  'GET /health': 'getHealth',
  'GET /ready': 'getReadiness',
  'GET /providers': 'listProviders',
  'GET /metrics': 'getMetrics',
  'POST /v1/research': 'createResearch',
  'GET /v1/research': 'listResearch',
  'GET /v1/research/{id}': 'getResearch',
  'POST /v1/research/estimate': 'estimateResearch',
  'DELETE /v1/research/{id}': 'deleteResearch',
  'GET /v1/research/{id}/status': 'getResearchStatus',
  'GET /v1/research/{id}/sources': 'listResearchSources',
  'GET /v1/research/{id}/claims': 'listResearchClaims',
  'GET /v1/research/{id}/evidence': 'listResearchEvidence',
  'GET /v1/research/{id}/plan': 'getResearchPlan',
  'GET /v1/research/{id}/report': 'getResearchReport',
  'GET /v1/research/{id}/report/document': 'getResearchReportDocument',
  'GET /v1/research/{id}/events': 'listResearchEvents',
  'POST /v1/research/{id}/cancel': 'cancelResearch',
  'GET /v1/research/{id}/webhook-deliveries': 'listWebhookDeliveries',
  'PUT /v1/research/{id}/deletion-protection': 'setDeletionProtection',
  'DELETE /v1/research/{id}/deletion-protection': 'removeDeletionProtection',
  'GET /v1/research/{id}/sources/{source_id}/content': 'getSourceContent',
  'GET /v1/research/{id}/manifest': 'getResearchManifest',
  'PUT /v1/research/{id}/plan': 'editResearchPlan',
  'POST /v1/research/{id}/approve': 'approveResearchPlan',
  'GET /v1/admin/research/deleted': 'listHiddenResearch',
  'DELETE /v1/admin/research/{id}': 'purgeResearch',
  'POST /search': 'search',
  'POST /crawler/fetch': 'crawlerFetch',
  'POST /crawler/fetch/batch': 'crawlerFetchBatch',
  'POST /crawler/validate-url': 'crawlerValidateUrl',
  'POST /research/planner': 'planResearch',
  'GET /research/{run_id}/claims': 'listRunClaims',
  'POST /research/{run_id}/claims': 'extractRunClaims',
  'POST /research/{run_id}/cluster-claims': 'clusterRunClaims',
  'GET /research/{run_id}/clusters': 'listRunClusters',
  'GET /research/{run_id}/claim-relations': 'listRunClaimRelations',
  'GET /research/{run_id}/evidence': 'listRunEvidence',
  'POST /research/{run_id}/evidence': 'scoreRunEvidence',
  'GET /research/{run_id}/synthesis': 'getRunSynthesis',
  'POST /research/{run_id}/synthesis': 'writeRunSynthesis',
  'POST /vision/analyze': 'analyzeImage',
  'POST /audio/transcribe': 'transcribeAudio',
  'POST /mcp': 'mcp',
  'POST /v1/collections': 'createCollection',
  'GET /v1/collections': 'listCollections',
  'GET /v1/collections/{id}': 'getCollection',
  'DELETE /v1/collections/{id}': 'deleteCollection',
  'POST /v1/collections/{id}/documents': 'uploadCollectionDocument',
  'GET /v1/collections/{id}/documents': 'listCollectionDocuments',
  'GET /v1/collections/{id}/documents/{doc_id}': 'getCollectionDocument',
  'DELETE /v1/collections/{id}/documents/{doc_id}': 'deleteCollectionDocument',
  'GET /v1/collections/{id}/search': 'searchCollection',
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const onlyNullable = (value: unknown) => isObject(value) && Object.keys(value).every((k) => k === 'nullable');

/** The `type` of the component a `$ref` names, if it has one. */
function refType(doc: Json, schema: unknown): string | undefined {
  const ref = isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref : undefined;
  const name = ref?.replace('#/components/schemas/', '');
  const schemas = (doc.components as Json | undefined)?.schemas as Json | undefined;
  const target = name ? schemas?.[name] : undefined;
  return isObject(target) && typeof target.type === 'string' ? target.type : undefined;
}

/**
 * Rewrites a schema (in place, then its children) so that `nullable` stands only beside a `type`, as the
 * generator writes it: `{allOf: [$ref, {nullable}]}` becomes the ref's type, nullable, of the ref; a `{nullable}`
 * member of an `anyOf`/`oneOf` makes its typed members nullable; a `nullable` on a schema without a type (any
 * value, null among them) goes.
 */
function typeNullables(doc: Json, schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach((item) => typeNullables(doc, item));
  if (!isObject(schema)) return;
  if (Array.isArray(schema.allOf) && schema.allOf.some(onlyNullable)) {
    schema.allOf = schema.allOf.filter((member) => !onlyNullable(member));
    schema.nullable = true;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key];
    if (!Array.isArray(members) || !members.some(onlyNullable)) continue;
    schema[key] = members.filter((member) => !onlyNullable(member));
    for (const member of schema[key] as unknown[]) if (isObject(member) && member.type) member.nullable = true;
  }
  if (schema.nullable !== undefined && schema.type === undefined) {
    const allOf = Array.isArray(schema.allOf) ? schema.allOf : [];
    const type = allOf
      .map((member) => refType(doc, member) ?? (isObject(member) ? member.type : undefined))
      .find(Boolean);
    if (type) schema.type = type;
    else delete schema.nullable;
  }
  for (const value of Object.values(schema)) typeNullables(doc, value);
}

/**
 * Request bodies written out where they are used instead of as components: openapi-typescript (7, its defaults)
 * makes a property with a `default` required in a referenced schema, so a generated client had to send every
 * defaulted field of POST /v1/research; written out in the request, such a property is optional, as it is. The
 * components only requests used go.
 */
function inlineRequestBodies(doc: Json): void {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Json;
  const inlined = new Set<string>();
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item)) {
      const content = isObject(operation) && isObject(operation.requestBody) ? operation.requestBody.content : null;
      for (const media of Object.values(isObject(content) ? content : {})) {
        const ref = isObject(media) && isObject(media.schema) ? media.schema.$ref : undefined;
        const name = typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
        if (!name || !isObject(schemas[name])) continue;
        (media as Json).schema = structuredClone(schemas[name]);
        inlined.add(name);
      }
    }
  }
  const text = JSON.stringify(doc);
  for (const name of inlined) if (!text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
}

/** The generated document, finished for clients (see the file's comment). Throws for an operation without an id. */
export function finishDocument<D extends object>(generated: D): D {
  const doc = generated as Json;
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation)) continue;
      const id = OPERATION_IDS[`${method.toUpperCase()} ${path}`];
      if (!id) throw new Error(`OpenAPI: no operationId for ${method.toUpperCase()} ${path} (OPERATION_IDS)`);
      operation.operationId = id;
    }
  }
  inlineRequestBodies(doc);
  typeNullables(doc, doc.components);
  typeNullables(doc, doc.paths);
  return generated;
}
