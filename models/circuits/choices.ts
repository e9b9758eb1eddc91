import { defineChoices } from '../../framework';

/** The two ends of a circuit. */
export const CircuitTerminationSideChoices = defineChoices([
  ['A', 'A'],
  ['Z', 'Z'],
]);
