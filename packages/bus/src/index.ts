export {
  DEFAULT_HANDLER_RETRY,
  type DeadLetterValue,
  type DeliveryObserver,
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
  type ConsumerLag,
  type ConsumerOptions,
  type DeliveredMessage,
  DependencyUnavailable,
  type MessageHandler,
  type Published,
} from './port.js';
