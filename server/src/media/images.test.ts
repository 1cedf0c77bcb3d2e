import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { thumbHashToRGBA } from 'thumbhash';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { HttpError } from '../http/errors.ts';
import { processImage } from './images.ts';
import { hugePng } from '../../../test/support/server/images.ts';

/** A solid image of `width`×`height` in `format`. */
const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } });

/** A 40×20 JPEG, left half red and right half blue, whose EXIF says "rotate 90° clockwise" and carries a GPS position. */
async function phoneJpeg(): Promise<Buffer> {
  const blue = await solid(20, 20, 'blue').png().toBuffer();
  return solid(40, 20, 'red')
    .composite([{ input: blue, left: 20, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '19/1 25/1 0/1', GPSMapDatum: 'WGS-84' } })
    .toBuffer();
}

/** The RGB of the pixel at (x, y) of an encoded image. */
async function pixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const err = await promise.then(
    () => {
      throw new Error('the image was accepted');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return { status: (err as HttpError).statusCode, message: (err as HttpError).message };
}

describe('processImage', () => {
  it('auto-orients a phone photo and stores it as WebP without EXIF, GPS or other metadata', async () => {
    const input = await phoneJpeg();
    const before = await sharp(input).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.toString('latin1')).toContain('WGS-84');

    const image = await processImage(input, { declaredType: 'image/jpeg' });
    expect(image.contentType).toBe('image/webp');
    const after = await sharp(image.data).metadata();
    expect(after.format).toBe('webp');
    // Rotated: 40×20 becomes 20×40, the red left half now on top.
    expect([image.width, image.height]).toEqual([20, 40]);
    expect([after.width, after.height]).toEqual([20, 40]);
    const [r, , b] = await pixel(image.data, 10, 5);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(60);
    const [r2, , b2] = await pixel(image.data, 10, 35);
    expect(b2).toBeGreaterThan(200);
    expect(r2).toBeLessThan(60);
    for (const stored of [image.data, image.thumb]) {
      const meta = await sharp(stored).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(stored.includes('WGS-84')).toBe(false);
      expect(stored.includes('PhoneMaker')).toBe(false);
    }
  });

  it('fits large images inside 2048×2048 and thumbnails inside 480×480, never enlarging small ones, with a ThumbHash placeholder', async () => {
    const large = await processImage(await solid(4000, 1000, '#336699').png().toBuffer());
    expect([large.width, large.height]).toEqual([2048, 512]);
    expect([large.thumbWidth, large.thumbHeight]).toEqual([480, 120]);
    expect((await sharp(large.thumb).metadata()).format).toBe('webp');
    const decoded = thumbHashToRGBA(Buffer.from(large.placeholder, 'base64'));
    expect(decoded.w / decoded.h).toBeGreaterThan(2);

    const small = await processImage(await solid(64, 48, 'green').jpeg().toBuffer(), { declaredType: 'image/jpg' });
    expect([small.width, small.height, small.thumbWidth, small.thumbHeight]).toEqual([64, 48, 64, 48]);
  });

  it('crops square on request (contestant photos): at most the given side, never enlarged, thumbnail square too', async () => {
    const large = await processImage(await solid(1600, 1200, '#336699').jpeg().toBuffer(), { square: 800 });
    expect([large.width, large.height, large.thumbWidth, large.thumbHeight]).toEqual([800, 800, 480, 480]);
    expect((await sharp(large.data).metadata()).format).toBe('webp');
    expect(large.placeholder.length).toBeGreaterThan(0);

    const small = await processImage(await solid(300, 200, 'green').png().toBuffer(), { square: 800 });
    expect([small.width, small.height]).toEqual([200, 200]);

    // The phone photo is 40×20 stored sideways: upright it is 20×40, cropped to 20×20.
    const rotated = await processImage(await phoneJpeg(), { square: 800 });
    expect([rotated.width, rotated.height]).toEqual([20, 20]);

    const frames = await Promise.all(['red', 'blue'].map((c) => solid(10, 30, c).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const animated = await processImage(gif, { square: 800 });
    expect([animated.width, animated.height]).toEqual([10, 10]);
  });

  it('crops to an exact shape on request (profile banners): as large as the image allows, never enlarged', async () => {
    const large = await processImage(await solid(2400, 1600, '#336699').jpeg().toBuffer(), { cover: { width: 1500, height: 500 } });
    expect([large.width, large.height]).toEqual([1500, 500]);
    const narrow = await processImage(await solid(600, 900, 'green').png().toBuffer(), { cover: { width: 1500, height: 500 } });
    expect([narrow.width, narrow.height]).toEqual([600, 200]);
    const flat = await processImage(await solid(3000, 300, 'green').png().toBuffer(), { cover: { width: 1500, height: 500 } });
    expect([flat.width, flat.height]).toEqual([900, 300]);
    // Stored 40×20 sideways, upright 20×40: the crop is of the upright image.
    const rotated = await processImage(await phoneJpeg(), { cover: { width: 30, height: 10 } });
    expect([rotated.width, rotated.height]).toEqual([20, 7]);
    const upright = await processImage(await phoneJpeg(), { cover: { width: 10, height: 30 } });
    expect([upright.width, upright.height]).toEqual([10, 30]);
  });

  it('keeps only the first frame of an animated GIF', async () => {
    const frames = await Promise.all(['red', 'blue'].map((c) => solid(10, 10, c).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const image = await processImage(gif, { declaredType: 'image/gif' });
    expect([image.width, image.height]).toEqual([10, 10]);
    expect((await sharp(image.data).metadata()).pages).toBeUndefined();
    expect((await pixel(image.data, 5, 5))[0]).toBeGreaterThan(200);
  });

  it('derives content-addressed keys from the encoded bytes', async () => {
    const input = await solid(30, 30, 'purple').png().toBuffer();
    const a = await processImage(input);
    const b = await processImage(input, { declaredType: 'application/octet-stream' });
    expect(a.key).toBe(b.key);
    expect(a.thumbKey).toBe(b.thumbKey);
    expect(a.key).toMatch(/^([0-9a-f]{2})\/([0-9a-f]{2})\/\1\2[0-9a-f]{60}\.webp$/);
    const other = await processImage(await solid(30, 30, 'orange').png().toBuffer());
    expect(other.key).not.toBe(a.key);
  });

  it('refuses a type the client lies about (a PNG sent as a GIF)', async () => {
    const png = await solid(8, 8, 'red').png().toBuffer();
    expect(await refusal(processImage(png, { declaredType: 'image/gif' }))).toEqual({ status: 400, message: WALL_MESSAGES.typeMismatch });
    await expect(processImage(png, { declaredType: 'image/png' })).resolves.toMatchObject({ width: 8 });
    await expect(processImage(png, { declaredType: '' })).resolves.toMatchObject({ width: 8 });
  });

  it.each([
    ['an ELF executable', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200)])],
    ['a Windows executable', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)])],
    ['a script', Buffer.from('<script>alert(1)</script>')],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s named photo.jpg as not an image', async (_what, bytes) => {
    expect(await refusal(processImage(bytes, { declaredType: 'image/jpeg' }))).toEqual({ status: 400, message: WALL_MESSAGES.imagesOnly });
  });

  it('refuses more than 40 megapixels from the header, before decoding', async () => {
    const png = hugePng(20_000, 20_000);
    expect(png.length).toBeLessThan(200_000);
    expect(await refusal(processImage(png, { declaredType: 'image/png' }))).toEqual({ status: 400, message: WALL_MESSAGES.imageTooManyPixels });
    // The limit is the caller's to lower.
    const modest = await solid(100, 100, 'red').png().toBuffer();
    expect(await refusal(processImage(modest, { maxPixels: 5_000 }))).toEqual({ status: 400, message: WALL_MESSAGES.imageTooManyPixels });
  });

  it('refuses a truncated JPEG instead of padding it', async () => {
    const noise = Buffer.from(Array.from({ length: 300 * 200 * 3 }, (_, i) => (i * 7919) % 251));
    const jpeg = await sharp(noise, { raw: { width: 300, height: 200, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    expect(await refusal(processImage(truncated, { declaredType: 'image/jpeg' }))).toEqual({ status: 400, message: WALL_MESSAGES.imageUnreadable });
  });

  it('refuses a GIF/JavaScript polyglot', async () => {
    const polyglot = Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=alert(document.domain)//;', 'latin1');
    const { status } = await refusal(processImage(polyglot, { declaredType: 'image/gif' }));
    expect(status).toBe(400);
  });
});
