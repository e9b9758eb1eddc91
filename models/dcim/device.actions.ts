import { lookup } from 'node:dns/promises';
import { defineActions, type ActionRequest } from '../../framework';
import { IPAddress } from '../ipam/ip-address';
import { Device } from './device';
import { Platform } from './platform';

/** Nautobot 1.6 answers its NAPALM failures with 503 and a `detail`. */
function unavailable(detail: string) {
  return { status: 503, body: { detail } };
}

/** Whether a device name resolves in DNS (Nautobot's fallback when there is no primary IP). */
async function resolves(name: string): Promise<boolean> {
  try {
    await lookup(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * `napalm/`: Nautobot 1.6's checks in its order, ending where a server without the optional
 * NAPALM package ends. netinv queries no devices, so a device passing every check gets that
 * server's answer, never a 500.
 */
async function napalm(req: ActionRequest) {
  const db = req.ctx.db.reader;
  const device = await req.object(db, await req.restrict(Device, 'view'));
  const [platform] = device.platform ? await req.find(db, Platform, { id: device.platform }) : [];
  if (!platform) return unavailable('No platform is configured for this device.');
  if (!platform.napalm_driver) return unavailable(`No NAPALM driver is configured for this device's platform: ${String(platform.name)}.`);
  const primary = (device.primary_ip6 ?? device.primary_ip4) as string | null;
  const [ip] = primary ? await req.find(db, IPAddress, { id: primary }) : [];
  if (!ip) {
    if (!device.name) return unavailable('This device does not have a primary IP address or device name to lookup configured.');
    if (!(await resolves(String(device.name)))) {
      return unavailable(`Name lookup failure, unable to resolve IP address for ${String(device.name)}. Please set Primary IP or setup name resolution.`);
    }
  }
  return unavailable('NAPALM is not installed. Please see the documentation for instructions.');
}

export const deviceActions = defineActions(Device, {
  napalm: { detail: true, GET: { action: 'view', handler: napalm } },
});
