import { defineApp } from '../../framework';
import { traceActionsFor } from '../dcim/cable.actions';
import { Circuit } from './circuit';
import { CircuitTermination } from './circuit-termination';
import { CircuitType } from './circuit-type';
import { Provider } from './provider';
import { ProviderNetwork } from './provider-network';

export { Provider, CircuitType, Circuit, CircuitTermination, ProviderNetwork };

export default defineApp('circuits', [Provider, CircuitType, Circuit, CircuitTermination, ProviderNetwork], {
  actions: [...traceActionsFor(CircuitTermination)],
});
