import { Initial1795431301220 } from './1795431301220-initial';
/** Core schema migrations, oldest first. */
export const CORE_MIGRATIONS: Function[] = [Initial1795431301220];
