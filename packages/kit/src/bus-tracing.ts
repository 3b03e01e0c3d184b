/**
 * The bus port carrying the trace: a producer span per published message, its context in the
 * message's headers, and a consumer span, continuing it, around each handler call.
 */
import type { Bus, BusMessage } from '@docflow/bus';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { telemetryOn } from './telemetry';
import { contextFromHeaders, traceHeaders } from './trace-context';
import { inSpan, markFailed, SERVICE_ATTRIBUTE, startSpan } from './tracing';

// Messaging conventions are still incubating: their names are copied here, as the package advises,
// rather than loading its large incubating module.
const ATTR_MESSAGING_DESTINATION_NAME = 'messaging.destination.name';
const ATTR_MESSAGING_CONSUMER_GROUP_NAME = 'messaging.consumer.group.name';
const ATTR_MESSAGING_MESSAGE_ID = 'messaging.message.id';

/**
 * A message is published in the trace its headers name, else in the active one (the relay makes that
 * the trace its event was appended in).
 *
 * @example const bus = traceBus(createKafkaBus(options), 'document');
 */
export function traceBus(bus: Bus, service: string): Bus {
  if (!telemetryOn()) return bus;
  return {
    async publish(topic, messages) {
      const spans = messages.map((m) =>
        startSpan(`publish ${topic}`, {
          kind: SpanKind.PRODUCER,
          parent: contextFromHeaders(m.headers, context.active()),
          attributes: {
            [SERVICE_ATTRIBUTE]: service,
            [ATTR_MESSAGING_DESTINATION_NAME]: topic,
            [ATTR_MESSAGING_MESSAGE_ID]: m.id,
          },
        }),
      );
      const traced = messages.map(
        (m, i): BusMessage => ({
          ...m,
          headers: { ...m.headers, ...traceHeaders(trace.setSpan(context.active(), spans[i]!)) },
        }),
      );
      try {
        return await bus.publish(topic, traced);
      } catch (error) {
        for (const span of spans) markFailed(span, error);
        throw error;
      } finally {
        for (const span of spans) span.end();
      }
    },
    subscribe: (options, handler) =>
      bus.subscribe(options, (message) =>
        inSpan(
          `process ${message.topic}`,
          {
            kind: SpanKind.CONSUMER,
            // A message without a trace starts its own, whatever the consumer loop's context.
            parent: contextFromHeaders(message.headers),
            attributes: {
              [SERVICE_ATTRIBUTE]: service,
              [ATTR_MESSAGING_DESTINATION_NAME]: message.topic,
              [ATTR_MESSAGING_CONSUMER_GROUP_NAME]: options.groupId,
              [ATTR_MESSAGING_MESSAGE_ID]: message.id,
            },
          },
          () => handler(message),
        ),
      ),
    consumerLag: () => bus.consumerLag(),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}
