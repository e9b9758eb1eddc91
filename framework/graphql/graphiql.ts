import * as fs from 'node:fs';
import * as path from 'node:path';
import express, { type Router } from 'express';
import { cookies, SESSION_COOKIE } from '../auth/authenticate';
import type { AuthBackend } from '../auth/types';
import type { Database } from '../store/executor';

/**
 * Browser assets of the GraphiQL page, served from their npm packages so that the page works
 * without access to a CDN: React 18 and ReactDOM (the last majors shipping browser bundles) and
 * GraphiQL 3, which runs on them.
 */
const ASSETS: Readonly<Record<string, { pkg: string; file: string; type: string }>> = {
  'react.production.min.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'application/javascript' },
  'react-dom.production.min.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'application/javascript' },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'application/javascript' },
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css' },
};

/** The installed folder of a package, found from its entry point (its exports hide other files). */
function packageDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
    dir = path.dirname(dir);
  }
  throw new Error(`GraphiQL: package ${name} is not installed`);
}

/** JSON inside an inline script: `<` escaped so that no value can close the script element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function page(csrf: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>GraphiQL · netinv</title>
<link rel="stylesheet" href="/graphql/static/graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head><body><div id="graphiql">Loading…</div>
<script src="/graphql/static/react.production.min.js"></script>
<script src="/graphql/static/react-dom.production.min.js"></script>
<script src="/graphql/static/graphiql.min.js"></script>
<script>
  // The session authenticates the API calls; unsafe methods need the CSRF token as a header.
  const csrf = ${scriptJson(csrf)};
  const fetcher = (params) => fetch('/api/graphql/', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRFToken': csrf },
    body: JSON.stringify(params),
  }).then((response) => response.json());
  const params = new URLSearchParams(window.location.search);
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, { fetcher, defaultQuery: params.get('query') || undefined, defaultEditorToolbarOpen: true }),
  );
</script></body></html>`;
}

/**
 * `/graphql/`: GraphiQL for a logged-in browser session (a token is not enough, as in Nautobot);
 * anonymous visitors go to the login page and come back.
 */
export function graphiqlRoutes(backend: AuthBackend, db: Database): Router {
  const router = express.Router({ strict: true });
  for (const [name, asset] of Object.entries(ASSETS)) {
    const file = path.join(packageDir(asset.pkg), asset.file);
    router.get(`/static/${name}`, (_req, res) => {
      res.type(asset.type).set('Cache-Control', 'public, max-age=86400').sendFile(path.resolve(file));
    });
  }
  router.get('/', async (req, res, next) => {
    try {
      const key = cookies(req.headers.cookie).get(SESSION_COOKIE);
      const session = key && backend.findSession ? await backend.findSession(key, db.reader) : null;
      if (!session || !session.user.isActive) {
        res.redirect(302, `/api-auth/login/?next=${encodeURIComponent(req.originalUrl)}`);
        return;
      }
      res.status(200).type('text/html; charset=utf-8').set({ 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY' }).send(page(session.csrf));
    } catch (err) {
      next(err);
    }
  });
  return router;
}
