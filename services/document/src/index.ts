export { createDocumentService, type DocumentService, type DocumentServiceDeps } from './service';
