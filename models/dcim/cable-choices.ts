import { defineChoices } from '../../framework';

// Choice sets of cables (Nautobot's nautobot/dcim/choices.py).

/** What a cable is made of. */
export const CableTypeChoices = defineChoices([
  ['cat3', 'CAT3'],
  ['cat5', 'CAT5'],
  ['cat5e', 'CAT5e'],
  ['cat6', 'CAT6'],
  ['cat6a', 'CAT6a'],
  ['cat7', 'CAT7'],
  ['cat7a', 'CAT7a'],
  ['cat8', 'CAT8'],
  ['dac-active', 'Direct Attach Copper (Active)'],
  ['dac-passive', 'Direct Attach Copper (Passive)'],
  ['mrj21-trunk', 'MRJ21 Trunk'],
  ['coaxial', 'Coaxial'],
  ['mmf', 'Multimode Fiber'],
  ['mmf-om1', 'Multimode Fiber (OM1)'],
  ['mmf-om2', 'Multimode Fiber (OM2)'],
  ['mmf-om3', 'Multimode Fiber (OM3)'],
  ['mmf-om4', 'Multimode Fiber (OM4)'],
  ['mmf-om5', 'Multimode Fiber (OM5)'],
  ['smf', 'Singlemode Fiber'],
  ['smf-os1', 'Singlemode Fiber (OS1)'],
  ['smf-os2', 'Singlemode Fiber (OS2)'],
  ['aoc', 'Active Optical Cabling (AOC)'],
  ['power', 'Power'],
  ['other', 'Other'],
]);

/** Unit of a cable's length. */
export const CableLengthUnitChoices = defineChoices([
  ['km', 'Kilometers'],
  ['m', 'Meters'],
  ['cm', 'Centimeters'],
  ['mi', 'Miles'],
  ['ft', 'Feet'],
  ['in', 'Inches'],
]);
