export { FilesEnv } from './config';
export { createFilesService, type FilesService, type FilesServiceDeps } from './service';
export { FILE_NAME_HEADER } from './upload-headers';
