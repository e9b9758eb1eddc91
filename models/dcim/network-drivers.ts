import type { JsonObject } from '../../framework';

/**
 * Library-specific driver names for a platform's normalised `network_driver`, as Nautobot derives
 * them from the netutils library's mapping tables (tool → normalised name → library name).
 */

/** Drivers netmiko (and so ntc-templates) knows under the normalised name itself. */
const NETMIKO = [
  'a10', 'accedian', 'adtran_os', 'alcatel_aos', 'alcatel_sros', 'allied_telesis_awplus', 'apresia_aeos', 'arista_eos',
  'aruba_os', 'aruba_osswitch', 'aruba_procurve', 'avaya_ers', 'avaya_vsp', 'bigip_f5', 'broadcom_icos', 'brocade_fastiron',
  'brocade_fos', 'brocade_netiron', 'brocade_nos', 'brocade_vdx', 'brocade_vyos', 'calix_b6', 'centec_os', 'checkpoint_gaia',
  'ciena_saos', 'cisco_asa', 'cisco_ftd', 'cisco_ios', 'cisco_nxos', 'cisco_s300', 'cisco_tp', 'cisco_wlc', 'cisco_xe',
  'cisco_xr', 'cloudgenix_ion', 'coriant', 'dell_dnos9', 'dell_force10', 'dell_isilon', 'dell_os10', 'dell_os6', 'dell_os9',
  'dell_powerconnect', 'dlink_ds', 'eltex', 'eltex_esr', 'endace', 'enterasys', 'ericsson_ipos', 'extreme', 'extreme_ers',
  'extreme_exos', 'extreme_netiron', 'extreme_nos', 'extreme_slx', 'extreme_vdx', 'extreme_vsp', 'extreme_wing', 'flexvnf',
  'fortinet', 'generic', 'generic_termserver', 'hp_comware', 'hp_procurve', 'huawei', 'huawei_olt', 'huawei_smartax',
  'huawei_vrpv8', 'ipinfusion_ocnos', 'juniper', 'juniper_junos', 'juniper_screenos', 'keymile', 'keymile_nos', 'linux',
  'mellanox', 'mellanox_mlnxos', 'mikrotik_routeros', 'mikrotik_switchos', 'mrv_lx', 'mrv_optiswitch', 'netapp_cdot',
  'netgear_prosafe', 'netscaler', 'nokia_sros', 'oneaccess_oneos', 'ovs_linux', 'paloalto_panos', 'pluribus', 'quanta_mesh',
  'rad_etx', 'raisecom_roap', 'ruckus_fastiron', 'ruijie_os', 'sixwind_os', 'sophos_sfos', 'tplink_jetstream', 'ubiquiti_edge',
  'ubiquiti_edgerouter', 'ubiquiti_edgeswitch', 'ubiquiti_unifiswitch', 'vyatta_vyos', 'vyos', 'watchguard_fireware', 'yamaha',
  'zte_zxros',
];

const identity = (names: string[]): Record<string, string> => Object.fromEntries(names.map((n) => [n, n]));

/** Per tool, in the order Nautobot lists them: normalised name → the tool's own name. */
const TOOLS: Array<[tool: string, names: Record<string, string>]> = [
  ['ansible', {
    a10: 'a10.acos_axapi.a10', arista_eos: 'arista.eos.eos', aruba_aoscx: 'arubanetworks.aoscx', bigip_f5: 'f5networks.f5_bigip.bigip',
    ciena_saos: 'ciena.saos6.saos6', cisco_asa: 'cisco.asa.asa', cisco_ios: 'cisco.ios.ios', cisco_meraki: 'cisco.meraki.meraki',
    cisco_nxos: 'cisco.nxos.nxos', cisco_xe: 'cisco.ios.ios', cisco_xr: 'cisco.iosxr.iosxr', dell_os10: 'dellemc.os10.0s10',
    dell_os6: 'dellemc.os6.os6', dell_os9: 'dellemc.os9.os9', ericsson_ipos: 'community.network.eric_eccli',
    extreme_exos: 'community.network.exos', extreme_netiron: 'community.network.ironware', extreme_nos: 'community.network.nos',
    extreme_slx: 'community.network.slxos', extreme_vsp: 'community.network.voss', fortinet: 'fortinet.fortios.fortios',
    huawei: 'community.network.ce', juniper_junos: 'junipernetworks.junos.junos', lenovo_cnos: 'community.network.cnos',
    lenovo_enos: 'community.network.enos', mikrotik_routeros: 'community.network.routeros', nokia_sros: 'community.network.sros',
    paloalto_panos: 'paloaltonetworks.panos.panos', pluribus: 'community.network.netvisor', ruckus_icx: 'community.network.icx',
    sonic: 'dellemc.enterprise_sonic.sonic', vyos: 'vyos.vyos.vyos',
  }],
  ['hier_config', {
    arista_eos: 'eos', cisco_ios: 'ios', cisco_nxos: 'nxos', cisco_xe: 'ios', cisco_xr: 'iosxr', juniper_junos: 'junos',
    ruckus_fastiron: 'fastiron', vyos: 'vyos',
  }],
  ['napalm', {
    arista_eos: 'eos', aruba_aoscx: 'aoscx', bigip_f5: 'f5', cisco_asa: 'asa', cisco_ios: 'ios', cisco_nxos: 'nxos',
    cisco_wlc: 'cisco_wlc_ssh', cisco_xe: 'ios', cisco_xr: 'iosxr', fortinet: 'fortios', huawei: 'huawei_vrp',
    juniper_junos: 'junos', mikrotik_routeros: 'ros', nokia_sros: 'sros', paloalto_panos: 'panos', vyos: 'vyos',
  }],
  ['netmiko', identity(NETMIKO)],
  ['ntc_templates', identity([...NETMIKO, 'aruba_aoscx', 'huawei_vrp', 'vmware_nsxv', 'watchguard_firebox'])],
  ['pyats', {
    bigip_f5: 'bigip', cisco_asa: 'asa', cisco_dnac: 'dnac', cisco_ios: 'iosxe', cisco_nxos: 'nxos', cisco_viptella: 'viptela',
    cisco_xe: 'iosxe', cisco_xr: 'iosxr', juniper_junos: 'junos', linux: 'linux', nokia_sros: 'sros',
  }],
  ['pyntc', {
    arista_eos: 'arista_eos_eapi', bigip_f5: 'f5_tmos_icontrol', cisco_asa: 'cisco_asa_ssh', cisco_ios: 'cisco_ios_ssh',
    cisco_nxos: 'cisco_nxos_nxapi', cisco_wlc: 'cisco_aireos_ssh', cisco_xe: 'cisco_ios_ssh', juniper_junos: 'juniper_junos_netconf',
  }],
  ['scrapli', {
    arista_eos: 'arista_eos', aruba_aoscx: 'aruba_aoscx', cisco_ios: 'cisco_iosxe', cisco_nxos: 'cisco_nxos', cisco_xe: 'cisco_iosxe',
    cisco_xr: 'cisco_iosxr', juniper_junos: 'juniper_junos',
  }],
];

/** `{tool: driver}` for a normalised driver name; `{}` when it is empty or unknown to every tool. */
export function networkDriverMappings(driver: unknown): JsonObject {
  const out: JsonObject = {};
  if (typeof driver !== 'string' || driver === '') return out;
  for (const [tool, names] of TOOLS) {
    if (Object.prototype.hasOwnProperty.call(names, driver)) out[tool] = names[driver];
  }
  return out;
}
