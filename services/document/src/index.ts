export { DocumentEnv } from './config';
export { createDocumentService, type DocumentService, type DocumentServiceDeps } from './service';
