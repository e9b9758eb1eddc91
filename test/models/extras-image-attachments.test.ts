/**
 * Image attachments: listed, read, PATCHed and deleted as Nautobot's API does, plus netinv's
 * multipart upload (an extension): format and size from the file's bytes, the file served at
 * /media/ to callers who may view the attachment, removed with the attachment or its parent.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();
const LIST = '/api/extras/image-attachments/';

type Obj = Record<string, any>;
let seq = 0;

/** A 3×2 PNG built from its bytes (signature, IHDR, IDAT, IEND; chunk CRCs are not checked). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1])), chunk('IEND', Buffer.alloc(0))]);
}

async function site(): Promise<Obj> {
  const res = await app.post('/api/dcim/sites/', { name: `Pictured site ${++seq}`, status: 'active' });
  expect(res.status).toBe(201);
  return res.body;
}

function upload(fields: Record<string, string>, file: Buffer | null, filename = 'rack.png', token: string = app.token) {
  let req = app.raw().post(LIST).set('Authorization', `Token ${token}`).set('Accept', 'application/json');
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  if (file) req = req.attach('image', file, { filename, contentType: 'image/png' });
  return req;
}

function media(url: string, token: string | null = app.token) {
  const req = app.raw().get(new URL(url).pathname);
  return token ? req.set('Authorization', `Token ${token}`) : req;
}

function fileOf(url: string): string {
  return path.join(app.server.config.mediaRoot, new URL(url).pathname.replace(/^\/media\//, ''));
}

test('multipart upload: 201 with size from the bytes, file served back identical as image/png', async () => {
  const s = await site();
  const bytes = png(3, 2);
  const res = await upload({ content_type: 'dcim.site', object_id: s.id, name: 'Front' }, bytes);
  expect(res.status).toBe(201);
  expect(Object.keys(res.body)).toEqual(['id', 'display', 'url', 'content_type', 'object_id', 'parent', 'name', 'image', 'image_height', 'image_width', 'created']);
  expect(res.body).toMatchObject({ display: 'Front', content_type: 'dcim.site', object_id: s.id, name: 'Front', image_width: 3, image_height: 2 });
  expect(res.body.parent).toMatchObject({ id: s.id, url: s.url });
  expect(res.body.image).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/media/image-attachments/[0-9a-f-]{36}\\.png$`));
  expect((await app.get(`${LIST}${res.body.id}/`)).body).toEqual(res.body);
  const served = await media(res.body.image).buffer(true).parse((r, cb) => {
    const parts: Buffer[] = [];
    r.on('data', (c: Buffer) => parts.push(c));
    r.on('end', () => cb(null, Buffer.concat(parts)));
  });
  expect(served.status).toBe(200);
  expect(served.headers['content-type']).toBe('image/png');
  expect(served.headers['x-content-type-options']).toBe('nosniff');
  expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0);
  // Media is behind authentication.
  expect((await media(res.body.image, null)).status).toBe(403);
  // Without a name, display is the uploaded file's name; brief form as Nautobot's nested serializer.
  const unnamed = await upload({ content_type: 'dcim.site', object_id: s.id }, bytes, 'photo.png');
  expect(unnamed.status).toBe(201);
  expect(unnamed.body.display).toBe('photo.png');
  const brief = await app.get(`${LIST}${unnamed.body.id}/?brief=1`);
  expect(Object.keys(brief.body)).toEqual(['id', 'display', 'url', 'name', 'image']);
  // Filters.
  const listed = await app.get(`${LIST}?object_id=${s.id}&content_type=dcim.site`);
  expect(listed.body.count).toBe(2);
  expect((await app.get(`${LIST}?object_id=${s.id}&name=Front`)).body.count).toBe(1);
});

test('a JSON POST keeps Nautobot error', async () => {
  const s = await site();
  const res = await app.post(LIST, { content_type: 'dcim.site', object_id: s.id, name: 'x', image: 'data' });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ image: ['The submitted data was not a file. Check the encoding type on the form.'] });
});

test('a text file renamed .png is refused', async () => {
  const s = await site();
  const res = await upload({ content_type: 'dcim.site', object_id: s.id }, Buffer.from('hello, not an image\n'), 'fake.png');
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'] });
});

test('a file over NETINV_MAX_IMAGE_BYTES is a 400, a body over NETINV_MAX_BODY_BYTES a 413', async () => {
  const s = await site();
  const limit = app.server.config.maxImageBytes;
  const big = Buffer.concat([png(10, 10), Buffer.alloc(limit)]);
  const res = await upload({ content_type: 'dcim.site', object_id: s.id }, big);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ image: [`The file is larger than ${limit} bytes.`] });
  const huge = Buffer.concat([png(10, 10), Buffer.alloc(app.server.config.maxBodyBytes)]);
  expect((await upload({ content_type: 'dcim.site', object_id: s.id }, huge)).status).toBe(413);
});

test('the parent must exist and be a device, location, rack or site', async () => {
  const missing = '00000000-0000-4000-8000-000000000001';
  const res = await upload({ content_type: 'dcim.site', object_id: missing }, png(1, 1));
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ non_field_errors: [`Invalid parent object: dcim | site ID ${missing}`] });
  const wrongType = await upload({ content_type: 'dcim.region', object_id: missing }, png(1, 1));
  expect(wrongType.status).toBe(400);
  expect(wrongType.body).toEqual({ content_type: ['Invalid content type: dcim.region'] });
});

test('a parent the uploader may not view reads as missing; a visible one is accepted', async () => {
  const hidden = await site();
  const shown = await site();
  const userId = await app.createUser(`uploader-${++seq}`);
  const token = await app.createToken(userId);
  expect((await app.post('/api/users/permissions/', { name: `attach ${seq}`, object_types: ['extras.imageattachment'], actions: ['view', 'add'], users: [userId] })).status).toBe(201);
  expect((await app.post('/api/users/permissions/', { name: `one site ${seq}`, object_types: ['dcim.site'], actions: ['view'], users: [userId], constraints: { name: shown.name } })).status).toBe(201);
  const before = (await app.get(`${LIST}?object_id=${String(hidden.id)}`)).body.count;
  const refused = await upload({ content_type: 'dcim.site', object_id: String(hidden.id) }, png(1, 1), 'x.png', token);
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual({ non_field_errors: [`Invalid parent object: dcim | site ID ${String(hidden.id)}`] });
  expect((await app.get(`${LIST}?object_id=${String(hidden.id)}`)).body.count).toBe(before);
  const accepted = await upload({ content_type: 'dcim.site', object_id: String(shown.id) }, png(1, 1), 'y.png', token);
  expect(accepted.status).toBe(201);
});

test('media of an attachment hidden from the user is a 404', async () => {
  const s = await site();
  const mine = await upload({ content_type: 'dcim.site', object_id: s.id }, png(2, 2));
  expect(mine.status).toBe(201);
  const userId = await app.createUser(`pictures-${++seq}`);
  const token = await app.createToken(userId);
  const perm = await app.post('/api/users/permissions/', { name: `images ${seq}`, object_types: ['extras.imageattachment'], actions: ['view', 'add'], users: [userId], constraints: { name: 'visible' } });
  expect(perm.status).toBe(201);
  expect((await media(mine.body.image, token)).status).toBe(404);
});

test('PATCH the name with content_type and object_id; DELETE removes the file', async () => {
  const s = await site();
  const made = await upload({ content_type: 'dcim.site', object_id: s.id, name: 'Old' }, png(4, 4));
  const patched = await app.patch(`${LIST}${made.body.id}/`, { content_type: 'dcim.site', object_id: s.id, name: 'New' });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({ name: 'New', display: 'New', image: made.body.image, image_width: 4 });
  const file = fileOf(made.body.image);
  expect(existsSync(file)).toBe(true);
  expect((await app.delete(`${LIST}${made.body.id}/`)).status).toBe(204);
  expect(existsSync(file)).toBe(false);
  expect((await media(made.body.image)).status).toBe(404);
});

test('deleting the parent site removes its attachments and their files', async () => {
  const s = await site();
  const made = await upload({ content_type: 'dcim.site', object_id: s.id }, png(5, 5));
  const file = fileOf(made.body.image);
  expect(existsSync(file)).toBe(true);
  expect((await app.delete(`/api/dcim/sites/${s.id}/`)).status).toBe(204);
  expect((await app.get(`${LIST}${made.body.id}/`)).status).toBe(404);
  expect(existsSync(file)).toBe(false);
});

test('content_type_id filters by the id of the parent content type; an unknown id is a 400', async () => {
  const s = await site();
  const made = await upload({ content_type: 'dcim.site', object_id: s.id, name: 'By type' }, png(4, 4));
  expect(made.status).toBe(201);
  const typeIds: Record<string, number> = {};
  for (const model of ['site', 'device']) {
    const res = await app.get(`/api/extras/content-types/?app_label=dcim&model=${model}`);
    expect(res.body.count).toBe(1);
    typeIds[model] = res.body.results[0].id as number;
  }
  const id = (model: string) => typeIds[model];
  const ids = async (query: string) => ((await app.get(`${LIST}?${query}&limit=1000`)).body.results as Obj[]).map((r) => r.id);
  expect(await ids(`content_type_id=${id('site')}`)).toContain(made.body.id);
  expect(await ids(`content_type_id=${id('device')}`)).not.toContain(made.body.id);
  expect(await ids(`content_type_id__n=${id('device')}`)).toContain(made.body.id);
  // A content type that cannot be a parent is a valid value matching nothing.
  const provider = (await app.get('/api/extras/content-types/?app_label=circuits&model=provider')).body.results[0].id as number;
  const none = await app.get(`${LIST}?content_type_id=${provider}`);
  expect({ status: none.status, count: none.body.count }).toEqual({ status: 200, count: 0 });
  const unknown = await app.get(`${LIST}?content_type_id=999999`);
  expect(unknown.status).toBe(400);
  expect(unknown.body).toEqual({ content_type_id: ['Select a valid choice. That choice is not one of the available choices.'] });
});
