export {
  DEFAULT_HANDLER_RETRY,
  type DeadLetterValue,
  deadLetterTopic,
  type HandlerRetryOptions,
} from './delivery.js';
export { createInProcessBus, type InProcessBusOptions } from './in-process.js';
export { createKafkaBus, type KafkaBusOptions } from './kafka.js';
export {
  type Bus,
  type BusMessage,
  BusUnavailable,
  type Consumer,
  type ConsumerOptions,
  type DeliveredMessage,
  type MessageHandler,
} from './port.js';
