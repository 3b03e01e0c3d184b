/**
 * Event schema versions and their upcasters: the one place where an event written in an older layout
 * is brought to the current one. Each type lists its steps; step i takes the data of version i + 1 to
 * version i + 2, so a type's current version is its number of steps + 1 (1 for a type never changed).
 * Writers stamp `currentVersion(type)` (kit's aggregate.ts); readers call `upcast` before they parse
 * (kit's loadAggregate, the bus envelope, the store subscriptions that parse data). Pure.
 *
 * Version 1 is every layout written before versions were counted (each event was stored as version 1
 * whatever its layout), so a type's first step tells those layouts apart by their shape.
 */
import { auditCheckpointedSteps } from './audit-checkpointed';
import { personalFieldsSteps } from './identity-personal-fields';
import { recognizedTextSteps } from './recognized-text';
import type { UpcastStep } from './step';

/** Event type → its steps, oldest first. Event type names are unique across every service's streams. */
const STEPS: Readonly<Record<string, readonly UpcastStep[]>> = {
  AuditCheckpointed: auditCheckpointedSteps,
  FileRecognized: recognizedTextSteps,
  RecognitionRecorded: recognizedTextSteps,
  AccountCreated: personalFieldsSteps,
  PersonUpdated: personalFieldsSteps,
  PasswordChanged: personalFieldsSteps,
};

/** The version a writer stamps on a new event of `type`. */
export function currentVersion(type: string): number {
  return (STEPS[type]?.length ?? 0) + 1;
}

/** An event as stored or carried on the bus: what upcasting needs of it. */
export interface VersionedEvent {
  id: string;
  type: string;
  version: number;
  data: Record<string, unknown>;
}

/** An event written by a newer release than this one: its layout cannot be known here. */
export class UnknownEventVersion extends Error {
  override readonly name = 'UnknownEventVersion';
  constructor(
    readonly type: string,
    readonly version: number,
  ) {
    super(`event type ${type} version ${version} is newer than this release knows (${currentVersion(type)})`);
  }
}

/**
 * The event with its data in the current layout of its type and `version` the current one; the very
 * same object when it already is. Throws UnknownEventVersion for a version above the current one.
 * @example const { data } = upcast(recordedEvent); parse(recordedEvent.type, data)
 */
export function upcast<E extends VersionedEvent>(event: E): E {
  const steps = STEPS[event.type] ?? [];
  const current = steps.length + 1;
  if (event.version === current) return event;
  if (event.version > current) throw new UnknownEventVersion(event.type, event.version);
  let data = event.data;
  for (const step of steps.slice(Math.max(0, event.version - 1))) data = step(data, event);
  return { ...event, version: current, data };
}
