import { ValidationError, type Values, type WriteContext } from '../../framework';
import { VLAN } from './vlan';

/** What the VLAN rules need to know about an interface's parent (device or virtual machine). */
export interface VlanParent {
  /** `device` or `virtual machine`, as the messages name it. */
  noun: string;
  /** Site of the parent, null when it has none. */
  site: string | null;
  /** Device interfaces also check the untagged VLAN's site (the VM interface model does not). */
  checkUntaggedSite: boolean;
}

function vlanText(vlan: Values): string {
  return `${String(vlan.name)} (${String(vlan.vid)})`;
}

/**
 * 802.1Q rules shared by device and VM interfaces, in Nautobot's order: the serializer's mode
 * checks on what was sent, the tagged VLANs' site, then the model's untagged VLAN checks. A
 * non-`tagged` interface keeps no tagged VLANs (Nautobot clears them on save).
 */
export async function checkVlanAssignment(values: Values, wc: WriteContext, parent: () => Promise<VlanParent>): Promise<void> {
  const mode = String(values.mode ?? '');
  const tagged = (values.tagged_vlans as string[] | undefined) ?? [];
  const sentTagged = wc.sent.has('tagged_vlans');
  if (mode !== 'tagged') {
    if (sentTagged && tagged.length) {
      throw ValidationError.field('tagged_vlans', 'Mode must be set to tagged when specifying tagged_vlans');
    }
    const stored = (wc.current?.tagged_vlans as string[] | undefined) ?? [];
    if (!(sentTagged && tagged.length === 0) && stored.length) {
      throw ValidationError.field('tagged_vlans', `Clear tagged_vlans to set mode to ${mode}`);
    }
  }
  const untagged = (values.untagged_vlan as string | null | undefined) ?? null;
  const needsParent = (sentTagged && tagged.length > 0) || untagged !== null;
  const owner = needsParent ? await parent() : null;
  if (owner && sentTagged && tagged.length) {
    const vlans = await wc.store.find(VLAN, { id__in: tagged });
    const byId = new Map(vlans.map((v) => [String(v.id), v]));
    for (const id of tagged) {
      const vlan = byId.get(String(id));
      if (vlan && vlan.site && vlan.site !== owner.site) {
        throw ValidationError.field(
          'tagged_vlans',
          `VLAN ${vlanText(vlan)} must belong to the same site as the interface's parent ${owner.noun}, or it must be global.`,
        );
      }
    }
  }
  if (untagged !== null && !mode) {
    throw ValidationError.field('untagged_vlan', 'Mode must be set when specifying untagged_vlan');
  }
  if (owner && untagged !== null && owner.checkUntaggedSite) {
    const [vlan] = await wc.store.find(VLAN, { id: untagged });
    if (vlan && vlan.site && vlan.site !== owner.site) {
      throw ValidationError.field(
        'untagged_vlan',
        `The untagged VLAN (${vlanText(vlan)}) must belong to the same site as the interface's parent ${owner.noun}, or it must be global`,
      );
    }
  }
  if (mode !== 'tagged') values.tagged_vlans = [];
}
