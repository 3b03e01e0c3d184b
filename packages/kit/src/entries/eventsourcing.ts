/**
 * Event-sourcing helpers: aggregates on the event store, event metadata, the outbox relay to the bus, the
 * local database.
 */
export * from '../aggregate';
export * from '../event-store-append-marks';
export * from '../event-store-stamping';
export * from '../local-db';
export * from '../metadata';
export * from '../relay';
export * from '../while-leased';
