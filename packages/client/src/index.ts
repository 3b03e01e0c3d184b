/** `@docflow/client`: the typed client of the docflow API. */
export * from './client';
export type { FileSource, UploadFile } from './multipart';
export type { components, operations, paths } from './openapi';
export * from './problem';
