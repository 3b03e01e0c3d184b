/**
 * `pnpm audit:verify-store`: verifies every document of a store against its latest audit checkpoint
 * (verify-store.ts). Reads the same configuration as the document service (DOCFLOW_DATA_DIR, and
 * EVENTSTORE_CONNECTION_STRING when the events live in EventStoreDB); reads only, so it may run beside
 * the service. Prints the verdict as JSON; exits 0 when the store verifies, 1 when not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '@docflow/kit';
import { openEventStore } from '@docflow/kit/engines';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { z } from 'zod';
import { followStreamHeads } from './heads';
import { verifyStore } from './verify-store';

const Env = z.object({
  DOCFLOW_DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_CONNECTION_STRING: z.string().optional(),
});
const CATCH_UP_POLL_MS = 20;
/** Reading the whole store takes longer than this only when something is wrong. */
const CATCH_UP_TIMEOUT_MS = 30 * 60_000;

const config = loadConfig(Env);
const store = openEventStore('document', config);
// Every document stream there is: the heads subscription reads the store from its first event, into
// a scratch database of its own (not the service's local.db).
const scratch = mkdtempSync(join(tmpdir(), 'docflow-verify-store-'));
const db = openLocalDb(join(scratch, 'heads.db'));
const heads = followStreamHeads(store, db);
heads.start();
const deadline = Date.now() + CATCH_UP_TIMEOUT_MS;
while (!(await heads.caughtUp())) {
  if (Date.now() > deadline) throw new Error('the store was not read whole in time');
  await sleep(CATCH_UP_POLL_MS);
}
await heads.stop();
const verdict = await verifyStore(store, heads.streamIds());
db.close();
rmSync(scratch, { recursive: true, force: true });
await store.close();
process.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
process.exitCode = verdict.valid ? 0 : 1;
