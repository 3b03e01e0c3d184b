export * from './attachments';
export * from './bucket-root';
export * from './bundle';
export * from './bundle-verify';
export * from './chain';
export * from './merkle';
