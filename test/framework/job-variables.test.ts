/**
 * Job variables: each kind's parsing and Django form messages, objects by UUID or attributes
 * against a real database, and the `variables/` description of each kind.
 */
import { FieldError, Job, JobInfo, Var, describeVariable, jobVariablesOf, parseVariable } from '../../framework';
import { startApp, type TestApp } from '../helpers/harness';

@JobInfo({ name: 'Kinds' })
class Kinds extends Job {
  @Var.String({ min_length: 2, max_length: 4, regex: '^[a-z]+$' }) s!: string;
  @Var.Text({ required: false, default: 'x' }) t!: string;
  @Var.Integer({ min_value: 1, max_value: 10 }) i!: number;
  @Var.Boolean() b!: boolean;
  @Var.Choice({ choices: [['a', 'A'], 'b'] }) c!: string;
  @Var.MultiChoice({ choices: ['x', 'y'] }) mc!: string[];
  @Var.Object({ model: 'dcim.region', query_params: { slug__startswith: 'ok' } }) o!: string;
  @Var.MultiObject({ model: 'dcim.region', required: false }) mo!: string[];
  @Var.IPAddress() ip!: string;
  @Var.IPAddressWithMask() ipm!: string;
  @Var.IPNetwork() net!: string;
  @Var.File({ required: false }) f!: string;
  async run(): Promise<void> {}
}

let app: TestApp;
let region: string;
let other: string;
beforeAll(async () => {
  app = await startApp();
  region = (await app.post('/api/dcim/regions/', { name: 'OK one', slug: 'ok-one' })).body.id;
  other = (await app.post('/api/dcim/regions/', { name: 'Other', slug: 'other' })).body.id;
});
afterAll(async () => {
  await app?.close();
});

const spec = (name: string) => jobVariablesOf(Kinds).find((v) => v.name === name)!;
const parse = (name: string, value: unknown) => parseVariable(spec(name), value, { registry: app.server.registry, db: app.server.db.reader });
async function error(name: string, value: unknown): Promise<string[]> {
  try {
    await parse(name, value);
  } catch (err) {
    if (err instanceof FieldError) return err.messages;
    throw err;
  }
  throw new Error(`${name}=${JSON.stringify(value)} was accepted`);
}

test('variables are listed in declaration order with the keys that apply', () => {
  const described = jobVariablesOf(Kinds).map((v) => describeVariable(v, app.server.registry));
  expect(described.map((d) => `${String(d.name)}:${String(d.type)}`)).toEqual([
    's:StringVar', 't:TextVar', 'i:IntegerVar', 'b:BooleanVar', 'c:ChoiceVar', 'mc:MultiChoiceVar', 'o:ObjectVar', 'mo:MultiObjectVar', 'ip:IPAddressVar', 'ipm:IPAddressWithMaskVar', 'net:IPNetworkVar', 'f:FileVar',
  ]);
  expect(described[0]).toEqual({ name: 's', type: 'StringVar', required: true, min_length: 2, max_length: 4 });
  expect(described[3]).toEqual({ name: 'b', type: 'BooleanVar', required: false });
  expect(described[4]).toEqual({ name: 'c', type: 'ChoiceVar', required: true, choices: [['a', 'A'], ['b', 'b']] });
  expect(described[6]).toEqual({ name: 'o', type: 'ObjectVar', required: true, model: 'dcim.region' });
});

test('strings, integers, booleans, choices', async () => {
  expect(await parse('s', 'abc')).toBe('abc');
  expect(await error('s', 'a')).toEqual(['Ensure this value has at least 2 characters (it has 1).']);
  expect(await error('s', 'abcde')).toEqual(['Ensure this value has at most 4 characters (it has 5).']);
  expect(await error('s', undefined)).toEqual(['This field is required.']);
  expect(await parse('t', undefined)).toBe('x');
  expect(await parse('i', '7')).toBe(7);
  expect(await error('i', 1.5)).toEqual(['Enter a whole number.']);
  expect(await error('i', 11)).toEqual(['Ensure this value is less than or equal to 10.']);
  expect(await parse('b', undefined)).toBe(false);
  expect(await parse('b', 'false')).toBe(false);
  expect(await parse('b', true)).toBe(true);
  expect(await parse('c', 'a')).toBe('a');
  expect(await error('c', 'z')).toEqual(['Select a valid choice. z is not one of the available choices.']);
  expect(await parse('mc', ['x', 'y'])).toEqual(['x', 'y']);
  expect(await error('mc', 'x')).toEqual(['Enter a list of values.']);
  expect(await error('mc', ['q'])).toEqual(['Select a valid choice. q is not one of the available choices.']);
});

test('objects by UUID or attributes, within query_params', async () => {
  expect(await parse('o', region)).toBe(region);
  expect(await parse('o', { slug: 'ok-one' })).toBe(region);
  expect(await error('o', other)).toEqual(['Select a valid choice. That choice is not one of the available choices.']);
  expect(await error('o', '11111111-1111-4111-8111-111111111111')).toEqual(['Select a valid choice. That choice is not one of the available choices.']);
  expect(await parse('mo', [region, other])).toEqual([region, other]);
  expect(await parse('mo', undefined)).toEqual([]);
});

test('addresses and networks', async () => {
  expect(await parse('ip', '192.0.2.1')).toBe('192.0.2.1');
  expect(await error('ip', '192.0.2.1/24')).toEqual(['Please specify a valid IPv4 or IPv6 address.']);
  expect(await parse('ipm', '2001:db8::1/64')).toBe('2001:db8::1/64');
  expect(await error('ipm', '192.0.2.1')).toEqual(['Please specify a valid IPv4 or IPv6 address with mask.']);
  expect(await parse('net', '10.0.0.0/8')).toBe('10.0.0.0/8');
  expect(await error('net', 'nope')).toEqual(['Please specify a valid IPv4 or IPv6 address with mask.']);
});
