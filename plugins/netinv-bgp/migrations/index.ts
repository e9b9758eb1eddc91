import { AutonomousSystemStatus1796645437642 } from './1796645437642-autonomous-system-status';
import { InitialBgp1795435216387 } from './1795435216387-initial-bgp';
import { AddBgpObjectVersions1795821692027 } from './1795821692027-add-bgp-object-versions';
/** This plugin's schema migrations, oldest first. */
export const MIGRATIONS: Function[] = [InitialBgp1795435216387, AddBgpObjectVersions1795821692027, AutonomousSystemStatus1796645437642];
