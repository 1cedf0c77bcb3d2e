import type { FastifyReply } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './constants.ts';

/** Cookies are Secure whenever the site is served over https. */
export function isHttps(publicUrl: string): boolean {
  return new URL(publicUrl).protocol === 'https:';
}

/** The session cookie's name: __Host-tribuna_session over https (Secure), tribuna_session over plain http (development). */
export function sessionCookieName(publicUrl: string): string {
  return isHttps(publicUrl) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** Path=/ and no Domain, as the __Host- prefix requires (and Secure over https). */
function baseOptions(publicUrl: string): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: isHttps(publicUrl) };
}

export function setSessionCookie(reply: FastifyReply, publicUrl: string, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  reply.setCookie(sessionCookieName(publicUrl), token, { ...baseOptions(publicUrl), maxAge, expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.clearCookie(sessionCookieName(publicUrl), baseOptions(publicUrl));
}
