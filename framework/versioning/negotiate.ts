import { NotAcceptable, NotFound, ParseError } from '../errors';
import { DEFAULT_VERSION, SUPPORTED_VERSIONS, supportedVersion, type ApiVersion } from './version';

const LIST = SUPPORTED_VERSIONS.map(String).join(', ');

/**
 * Nautobot's rules: header and query both given and different → 400; unsupported header
 * version → 406; unsupported query version → 404; neither → the default (1.2).
 */
export function resolveVersion(fromHeader: string | undefined, fromQuery: string | undefined): ApiVersion {
  if (fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery) {
    throw new ParseError('Version mismatch between "Accept" header and query parameter.');
  }
  if (fromHeader !== undefined) {
    const v = supportedVersion(fromHeader);
    if (!v) throw new NotAcceptable(`Invalid version in "Accept" header. Supported versions are ${LIST}`);
    return v;
  }
  if (fromQuery !== undefined) {
    const v = supportedVersion(fromQuery);
    if (!v) throw new NotFound(`Invalid version in query parameter. Supported versions are ${LIST}`);
    return v;
  }
  return DEFAULT_VERSION;
}
