import { defineChoices, type ChoiceValue } from '../../framework';

/** Physical or logical kind of an interface (Nautobot's InterfaceTypeChoices, grouped as there). */
export const InterfaceTypeChoices = defineChoices([
  // Virtual interfaces
  ['virtual', 'Virtual'],
  ['bridge', 'Bridge'],
  ['lag', 'Link Aggregation Group (LAG)'],
  // Ethernet (fixed)
  ['100base-fx', '100BASE-FX (10/100ME FIBER)'],
  ['100base-lfx', '100BASE-LFX (10/100ME FIBER)'],
  ['100base-tx', '100BASE-TX (10/100ME)'],
  ['100base-t1', '100BASE-T1 (10/100ME Single Pair)'],
  ['1000base-t', '1000BASE-T (1GE)'],
  ['2.5gbase-t', '2.5GBASE-T (2.5GE)'],
  ['5gbase-t', '5GBASE-T (5GE)'],
  ['10gbase-t', '10GBASE-T (10GE)'],
  ['10gbase-cx4', '10GBASE-CX4 (10GE)'],
  // Ethernet (modular)
  ['1000base-x-gbic', 'GBIC (1GE)'],
  ['1000base-x-sfp', 'SFP (1GE)'],
  ['10gbase-x-sfpp', 'SFP+ (10GE)'],
  ['10gbase-x-xfp', 'XFP (10GE)'],
  ['10gbase-x-xenpak', 'XENPAK (10GE)'],
  ['10gbase-x-x2', 'X2 (10GE)'],
  ['25gbase-x-sfp28', 'SFP28 (25GE)'],
  ['50gbase-x-sfp56', 'SFP56 (50GE)'],
  ['40gbase-x-qsfpp', 'QSFP+ (40GE)'],
  ['50gbase-x-sfp28', 'QSFP28 (50GE)'],
  ['100gbase-x-cfp', 'CFP (100GE)'],
  ['100gbase-x-cfp2', 'CFP2 (100GE)'],
  ['200gbase-x-cfp2', 'CFP2 (200GE)'],
  ['100gbase-x-cfp4', 'CFP4 (100GE)'],
  ['100gbase-x-cpak', 'Cisco CPAK (100GE)'],
  ['100gbase-x-qsfp28', 'QSFP28 (100GE)'],
  ['200gbase-x-qsfp56', 'QSFP56 (200GE)'],
  ['400gbase-x-qsfp112', 'QSFP112 (400GE)'],
  ['400gbase-x-qsfpdd', 'QSFP-DD (400GE)'],
  ['400gbase-x-osfp', 'OSFP (400GE)'],
  ['800gbase-x-qsfpdd', 'QSFP-DD (800GE)'],
  ['800gbase-x-osfp', 'OSFP (800GE)'],
  // Ethernet (backplane)
  ['1000base-kx', '1000BASE-KX (1GE)'],
  ['10gbase-kr', '10GBASE-KR (10GE)'],
  ['10gbase-kx4', '10GBASE-KX4 (10GE)'],
  ['25gbase-kr', '25GBASE-KR (25GE)'],
  ['40gbase-kr4', '40GBASE-KR4 (40GE)'],
  ['50gbase-kr', '50GBASE-KR (50GE)'],
  ['100gbase-kp4', '100GBASE-KP4 (100GE)'],
  ['100gbase-kr2', '100GBASE-KR2 (100GE)'],
  ['100gbase-kr4', '100GBASE-KR4 (100GE)'],
  // Wireless
  ['ieee802.11a', 'IEEE 802.11a'],
  ['ieee802.11g', 'IEEE 802.11b/g'],
  ['ieee802.11n', 'IEEE 802.11n'],
  ['ieee802.11ac', 'IEEE 802.11ac'],
  ['ieee802.11ad', 'IEEE 802.11ad'],
  ['ieee802.11ax', 'IEEE 802.11ax'],
  ['ieee802.11ay', 'IEEE 802.11ay'],
  ['ieee802.15.1', 'IEEE 802.15.1 (Bluetooth)'],
  ['other-wireless', 'Other (Wireless)'],
  // Cellular
  ['gsm', 'GSM'],
  ['cdma', 'CDMA'],
  ['lte', 'LTE'],
  // SONET
  ['sonet-oc3', 'OC-3/STM-1'],
  ['sonet-oc12', 'OC-12/STM-4'],
  ['sonet-oc48', 'OC-48/STM-16'],
  ['sonet-oc192', 'OC-192/STM-64'],
  ['sonet-oc768', 'OC-768/STM-256'],
  ['sonet-oc1920', 'OC-1920/STM-640'],
  ['sonet-oc3840', 'OC-3840/STM-1234'],
  // FibreChannel
  ['1gfc-sfp', 'SFP (1GFC)'],
  ['2gfc-sfp', 'SFP (2GFC)'],
  ['4gfc-sfp', 'SFP (4GFC)'],
  ['8gfc-sfpp', 'SFP+ (8GFC)'],
  ['16gfc-sfpp', 'SFP+ (16GFC)'],
  ['32gfc-sfp28', 'SFP28 (32GFC)'],
  ['64gfc-qsfpp', 'QSFP+ (64GFC)'],
  ['128gfc-sfp28', 'QSFP28 (128GFC)'],
  // InfiniBand
  ['infiniband-sdr', 'SDR (2 Gbps)'],
  ['infiniband-ddr', 'DDR (4 Gbps)'],
  ['infiniband-qdr', 'QDR (8 Gbps)'],
  ['infiniband-fdr10', 'FDR10 (10 Gbps)'],
  ['infiniband-fdr', 'FDR (13.5 Gbps)'],
  ['infiniband-edr', 'EDR (25 Gbps)'],
  ['infiniband-hdr', 'HDR (50 Gbps)'],
  ['infiniband-ndr', 'NDR (100 Gbps)'],
  ['infiniband-xdr', 'XDR (250 Gbps)'],
  // Serial
  ['t1', 'T1 (1.544 Mbps)'],
  ['e1', 'E1 (2.048 Mbps)'],
  ['t3', 'T3 (45 Mbps)'],
  ['e3', 'E3 (34 Mbps)'],
  // ATM
  ['xdsl', 'xDSL'],
  // Coaxial
  ['docsis', 'DOCSIS'],
  // PON
  ['gpon', 'GPON (2.5 Gbps / 1.25 Gps)'],
  ['xg-pon', 'XG-PON (10 Gbps / 2.5 Gbps)'],
  ['xgs-pon', 'XGS-PON (10 Gbps)'],
  ['ng-pon2', 'NG-PON2 (TWDM-PON) (4x10 Gbps)'],
  ['epon', 'EPON (1 Gbps)'],
  ['10g-epon', '10G-EPON (10 Gbps)'],
  // Stacking
  ['cisco-stackwise', 'Cisco StackWise'],
  ['cisco-stackwise-plus', 'Cisco StackWise Plus'],
  ['cisco-flexstack', 'Cisco FlexStack'],
  ['cisco-flexstack-plus', 'Cisco FlexStack Plus'],
  ['cisco-stackwise-80', 'Cisco StackWise-80'],
  ['cisco-stackwise-160', 'Cisco StackWise-160'],
  ['cisco-stackwise-320', 'Cisco StackWise-320'],
  ['cisco-stackwise-480', 'Cisco StackWise-480'],
  ['cisco-stackwise-1t', 'Cisco StackWise-1T'],
  ['juniper-vcp', 'Juniper VCP'],
  ['extreme-summitstack', 'Extreme SummitStack'],
  ['extreme-summitstack-128', 'Extreme SummitStack-128'],
  ['extreme-summitstack-256', 'Extreme SummitStack-256'],
  ['extreme-summitstack-512', 'Extreme SummitStack-512'],
  // Other
  ['other', 'Other'],
] as const);
export type InterfaceType = ChoiceValue<typeof InterfaceTypeChoices>;

/** Types that are not physical ports (Nautobot's VIRTUAL_IFACE_TYPES). */
export const VIRTUAL_INTERFACE_TYPES: readonly string[] = ['virtual', 'bridge', 'lag'];

/** Wireless types (the IEEE 802.11 family). */
export const WIRELESS_INTERFACE_TYPES: readonly string[] = InterfaceTypeChoices.values.filter((v) => v.startsWith('ieee802.11'));

/** 802.1Q mode of an interface. */
export const InterfaceModeChoices = defineChoices({
  access: 'Access',
  tagged: 'Tagged',
  'tagged-all': 'Tagged (All)',
});
export type InterfaceMode = ChoiceValue<typeof InterfaceModeChoices>;

/** Whether a device type houses child devices in bays, or goes into one. */
export const SubdeviceRoleChoices = defineChoices({
  parent: 'Parent',
  child: 'Child',
});
export type SubdeviceRole = ChoiceValue<typeof SubdeviceRoleChoices>;

/** Physical form of a rack. */
export const RackTypeChoices = defineChoices({
  '2-post-frame': '2-post frame',
  '4-post-frame': '4-post frame',
  '4-post-cabinet': '4-post cabinet',
  'wall-frame': 'Wall-mounted frame',
  'wall-frame-vertical': 'Wall-mounted frame (vertical)',
  'wall-cabinet': 'Wall-mounted cabinet',
  'wall-cabinet-vertical': 'Wall-mounted cabinet (vertical)',
  other: 'Other',
});

/** Rail-to-rail width of a rack, in inches. */
export const RackWidthChoices = defineChoices([
  [10, '10 inches'],
  [19, '19 inches'],
  [21, '21 inches'],
  [23, '23 inches'],
] as const);

/** Unit of a rack's outer dimensions. */
export const RackDimensionUnitChoices = defineChoices({
  mm: 'Millimeters',
  in: 'Inches',
});

/** Side of a rack a device is mounted on. */
export const DeviceFaceChoices = defineChoices({
  front: 'Front',
  rear: 'Rear',
});

/** Whether a power feed is a primary or a redundant supply (Nautobot's PowerFeedTypeChoices). */
export const PowerFeedTypeChoices = defineChoices({
  primary: 'Primary',
  redundant: 'Redundant',
});

/** Current of a power feed (Nautobot's PowerFeedSupplyChoices). */
export const PowerFeedSupplyChoices = defineChoices({
  ac: 'AC',
  dc: 'DC',
});

/** Phases of a power feed (Nautobot's PowerFeedPhaseChoices). */
export const PowerFeedPhaseChoices = defineChoices({
  'single-phase': 'Single phase',
  'three-phase': 'Three-phase',
});
