/** The files service on its own (distributed mode). */
import {
  DistributedEnv,
  MinioEnv,
  openEventStore,
  openKafkaBus,
  openMinio,
  openServiceDb,
  runService,
} from '@docflow/kit';
import { FilesEnv } from './config';
import { createFilesService } from './service';

await runService(
  'files',
  DistributedEnv.extend(MinioEnv.shape).extend(FilesEnv.shape),
  async (config, log) => {
    const store = openEventStore('files', config);
    const bus = openKafkaBus('files', config);
    const db = openServiceDb('files', config);
    const blobs = openMinio(config);
    const files = createFilesService({
      store,
      blobs,
      bus,
      db,
      log,
      namespace: config.DOCFLOW_NAMESPACE,
      internalToken: config.DOCFLOW_INTERNAL_TOKEN,
      maxUploadBytes: config.DOCFLOW_MAX_UPLOAD_BYTES,
    });
    await files.start();
    return {
      fetch: files.app.fetch,
      async stop() {
        await files.stop();
        await bus.close();
        await blobs.close();
        await store.close();
        db.close();
      },
    };
  },
);
