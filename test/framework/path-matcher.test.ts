import { PathMatcher } from '../../framework/router/path-matcher';

describe('PathMatcher', () => {
  const matcher = new PathMatcher<string>();
  matcher.add('/', 'root');
  matcher.add('/extras/jobs/:source/:module/:cls/', 'job class');
  matcher.add('/extras/jobs/:id/notes/', 'job notes');
  matcher.add('/dcim/devices/', 'device list');
  matcher.add('/dcim/devices/:id/', 'device detail');
  matcher.add('/dcim/devices/bulk/', 'shadowed by the earlier detail route');
  matcher.add('/dcim/connected-device/', 'connected device');
  matcher.add('/swagger.json', 'schema');

  it('matches literal and parameter segments, decoding parameters', () => {
    expect(matcher.match('/')).toEqual({ value: 'root', params: {} });
    expect(matcher.match('/dcim/devices/')).toEqual({ value: 'device list', params: {} });
    expect(matcher.match('/dcim/devices/a%20b/')).toEqual({ value: 'device detail', params: { id: 'a b' } });
    expect(matcher.match('/extras/jobs/local/mod/Cls/')).toEqual({ value: 'job class', params: { source: 'local', module: 'mod', cls: 'Cls' } });
    expect(matcher.match('/extras/jobs/7/notes/')).toEqual({ value: 'job notes', params: { id: '7' } });
    expect(matcher.match('/swagger.json')).toEqual({ value: 'schema', params: {} });
  });

  it('lets the route added first win where a literal and a parameter both match, as Express does', () => {
    expect(matcher.match('/dcim/devices/bulk/')).toEqual({ value: 'device detail', params: { id: 'bulk' } });
  });

  it('is strict about the trailing slash, case and empty segments', () => {
    expect(matcher.match('/dcim/devices')).toBeNull();
    expect(matcher.match('/DCIM/devices/')).toBeNull();
    expect(matcher.match('/dcim/devices//')).toBeNull();
    expect(matcher.match('/dcim/devices/1/2/')).toBeNull();
    expect(matcher.match('dcim/devices/')).toBeNull();
  });

  it('raises the URIError Express raises for a malformed escape (answered as not found)', () => {
    const thrown = (() => {
      try {
        matcher.match('/dcim/devices/%E0%A4%A/');
        return null;
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(URIError);
    expect((thrown as { status?: number }).status).toBe(400);
  });

  it('refuses templates it cannot match by segments', () => {
    const m = new PathMatcher<string>();
    expect(() => m.add('/files/*path', 'x')).toThrow(/unsupported/);
    expect(() => m.add('/a/:id(\\d+)/', 'x')).toThrow(/unsupported/);
    expect(() => m.add('relative/', 'x')).toThrow(/start with/);
  });
});
