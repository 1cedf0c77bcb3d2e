import type { FastifyReply } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { SESSION_COOKIE } from './constants.ts';

/** Cookies are Secure whenever the site is served over https. */
export function isHttps(publicUrl: string): boolean {
  return new URL(publicUrl).protocol === 'https:';
}

function baseOptions(publicUrl: string): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: isHttps(publicUrl) };
}

export function setSessionCookie(reply: FastifyReply, publicUrl: string, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  reply.setCookie(SESSION_COOKIE, token, { ...baseOptions(publicUrl), maxAge, expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.clearCookie(SESSION_COOKIE, baseOptions(publicUrl));
}
