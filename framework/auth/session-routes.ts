import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { escapeHtml, pageHead, topBar } from '../http/page';
import type { Database } from '../store/executor';
import { cookies, SESSION_COOKIE } from './authenticate';
import type { AuthBackend } from './types';

/** Double-submit cookie protecting the login form itself (login CSRF). */
const LOGIN_CSRF_COOKIE = 'csrftoken';

/** Only local paths: a login must never send the browser to another site. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?!\/)[^\s\\]*$/.test(next) ? next : '/api/';
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

function loginPage(res: Response, csrf: string, next: string, error?: string, status = 200): void {
  res.status(status).type('text/html; charset=utf-8').set({ 'X-Frame-Options': 'DENY', 'Cache-Control': 'no-store' }).send(`<!DOCTYPE html>
<html lang="en">${pageHead('Log in · netinv')}
<body>${topBar('')}
<main><div class="card login-box">
<h1>Log in to netinv</h1>
${error ? `<p class="alert" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/api-auth/login/">
<input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(csrf)}">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label>Username <input name="username" autocomplete="username" required autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button class="primary" type="submit">Log in</button>
</form></div></main></body></html>`);
}

/**
 * `/api-auth/login/` and `/api-auth/logout/` for the browsable API: a session cookie (HttpOnly)
 * plus the CSRF token that unsafe API requests made with it must echo in `X-CSRFToken`.
 */
export function sessionRoutes(backend: AuthBackend, db: Database, options: { secureCookies?: boolean } = {}): Router {
  const router = express.Router();
  const cookieBase = { path: '/', sameSite: 'lax' as const, secure: options.secureCookies ?? false };

  const freshLoginToken = (req: Request, res: Response): string => {
    const existing = cookies(req.headers.cookie).get(LOGIN_CSRF_COOKIE);
    const token = existing && /^[0-9a-f]{64}$/.test(existing) ? existing : randomBytes(32).toString('hex');
    res.cookie(LOGIN_CSRF_COOKIE, token, cookieBase);
    return token;
  };

  router.get('/login/', (req, res) => {
    loginPage(res, freshLoginToken(req, res), safeNext(req.query.next));
  });

  router.post('/login/', express.urlencoded({ extended: false, limit: '16kb' }), async (req, res, next) => {
    try {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const cookie = cookies(req.headers.cookie).get(LOGIN_CSRF_COOKIE) ?? '';
      const target = safeNext(form.next);
      if (!sameToken(String(form.csrfmiddlewaretoken ?? ''), cookie)) {
        loginPage(res, freshLoginToken(req, res), target, 'CSRF verification failed. Reload the page and try again.', 403);
        return;
      }
      const user = backend.createSession
        ? await backend.checkPassword(String(form.username ?? ''), String(form.password ?? ''), db.reader)
        : null;
      if (!user || !backend.createSession) {
        loginPage(res, freshLoginToken(req, res), target, 'Please enter a correct username and password.', 200);
        return;
      }
      const session = await db.transaction((tx) => (backend.createSession as NonNullable<AuthBackend['createSession']>)(user, tx));
      res.cookie(SESSION_COOKIE, session.key, { ...cookieBase, httpOnly: true, expires: session.expires });
      // Readable by the page's scripts, which send it back as X-CSRFToken.
      res.cookie(LOGIN_CSRF_COOKIE, session.csrf, cookieBase);
      res.redirect(302, target);
    } catch (err) {
      next(err);
    }
  });

  const logout = async (req: Request, res: Response, next: (err?: unknown) => void) => {
    try {
      const key = cookies(req.headers.cookie).get(SESSION_COOKIE);
      if (key && backend.deleteSession) await db.transaction((tx) => (backend.deleteSession as NonNullable<AuthBackend['deleteSession']>)(key, tx));
      res.clearCookie(SESSION_COOKIE, cookieBase);
      res.redirect(302, safeNext(req.query.next));
    } catch (err) {
      next(err);
    }
  };
  router.get('/logout/', logout);
  router.post('/logout/', logout);
  return router;
}
