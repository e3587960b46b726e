export { createLlmClient, promptSize, type LlmClientOptions } from './llm-client';
export { createLlmClients, type LlmClients } from './llm-clients';
export { jsonSchemaOf } from './json-schema';
