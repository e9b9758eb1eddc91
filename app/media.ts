import { readFile } from 'node:fs/promises';
import express, { type Router } from 'express';
import { authenticate } from '../framework/auth/authenticate';
import { errorToResponse } from '../framework/errors/mapper';
import { NotFound } from '../framework/errors';
import { RequestContext } from '../framework/http/context';
import { and, fieldTest } from '../framework/query/predicate';
import { Store } from '../framework/store/store';
import type { FieldMeta } from '../framework';
import type { Services } from '../framework/router/api';
import { IMAGE_MEDIA_TYPES } from '../framework/fields/image-file';
import { ImageAttachment, type MediaStore } from '../models/extras';

/**
 * `GET /media/image-attachments/<file>`: an image attachment's file, for a caller who may view
 * that attachment (token or session, as the API authenticates; Nautobot serves media behind its
 * login too). The media type comes from the stored extension, never sniffed by the browser.
 */
export function mediaRoutes(services: Services, media: MediaStore): Router {
  const router = express.Router({ strict: true });
  router.get(/^\/image-attachments\/([0-9a-f-]{36}\.(png|jpg|gif|webp))$/, async (req, res) => {
    const ctx = new RequestContext(req, res, services.registry, services.db, services.config, services.logger);
    try {
      await authenticate(ctx, services.auth, false);
      const model = services.registry.forClass(ImageAttachment);
      const restrict = await services.permissions.restrict(ctx, model, 'view');
      const relative = `image-attachments/${(req.params as Record<string, string>)[0]}`;
      const [row] = await new Store(services.db.reader).find(model, and([fieldTest(model.field('image') as FieldMeta, 'exact', [relative]), restrict]));
      const full = row ? media.file(relative) : null;
      if (!full) throw new NotFound();
      const data = await readFile(full).catch(() => null);
      if (!data) throw new NotFound();
      const ext = relative.slice(relative.lastIndexOf('.') + 1);
      res.status(200).set({ 'Content-Type': IMAGE_MEDIA_TYPES[ext], 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-cache', 'Content-Security-Policy': "default-src 'none'" }).send(data);
    } catch (err) {
      const r = errorToResponse(err, services.config.version, ctx.id);
      res.status(r.status).set(r.headers ?? {}).json(r.body);
    }
  });
  return router;
}
