import { InitialBgp1795435216387 } from './1795435216387-initial-bgp';
/** This plugin's schema migrations, oldest first. */
export const MIGRATIONS: Function[] = [InitialBgp1795435216387];
