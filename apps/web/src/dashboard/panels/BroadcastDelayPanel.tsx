export { BroadcastDelayPanel } from '../../delay/BroadcastDelayPanel';
