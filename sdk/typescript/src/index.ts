// @mcp-wit/sdk: MCP servers in TypeScript or JavaScript as WebAssembly
// components that mcp-wit serves.
export { APPS_EXTENSION, RESOURCE_MIME_TYPE, Router } from './router.js';
export type {
  AppToolConfig,
  CompleteCallback,
  CompleteRequest,
  ExtensionExport,
  Icon,
  PresentationExport,
  PromptCallback,
  PromptConfig,
  ResourceCallback,
  ResourceTemplateCallback,
  ResourceTemplateMetadata,
  RouterExport,
  RouterOptions,
  ToolCallback,
  ToolConfig,
} from './router.js';
export { Context } from './context.js';
export type { Answer, Question } from './context.js';
export { ClientError, PromptError, ResourceError, ToolError } from './errors.js';
export type { RpcError } from './errors.js';
export type { Infer, JsonSchema, SchemaInput, ZodRawShape } from './schema.js';
export { matchUriTemplate } from './uri-template.js';
export type * from './types.js';
/** zod 4, as the MCP TypeScript SDK's examples use it. */
export { z } from 'zod';
