import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oversizedMask } from './pdf-mask-size';

const pdf = (...objects: string[]) =>
  Buffer.from(`%PDF-1.7\n${objects.map((o, i) => `${i + 1} 0 obj\n${o}\nendobj\n`).join('')}`, 'latin1');
const image = (mask: string) =>
  `<< /Type /XObject /Subtype /Image /Width 100 /Height 100 ${mask} /Length 0 >>\nstream\n\nendstream`;
const maskObject = (size: string) =>
  `<< /Type /XObject /Subtype /Image ${size} /Length 0 >>\nstream\n\nendstream`;

describe('oversizedMask', () => {
  it('finds an /SMask or a /Mask stream declaring more than the bound', () => {
    for (const key of ['/SMask', '/Mask'])
      assert.deepEqual(
        oversizedMask(pdf(image(`${key} 2 0 R`), maskObject('/Width 6000 /Height 6000')), 35e6),
        {
          object: 2,
          width: 6000,
          height: 6000,
        },
      );
  });

  it('reads the abbreviated /W and /H, and the last definition of an updated object', () => {
    const updated = Buffer.concat([
      pdf(image('/SMask 2 0 R'), maskObject('/Width 10 /Height 10')),
      Buffer.from(`2 0 obj\n${maskObject('/W 9000\n/H 9000')}\nendobj\n`, 'latin1'),
    ]);
    assert.deepEqual(oversizedMask(updated, 35e6), { object: 2, width: 9000, height: 9000 });
  });

  it('passes masks within the bound, colour-key masks, /SMaskInData and object 12 for object 2', () => {
    assert.equal(
      oversizedMask(pdf(image('/SMask 2 0 R'), maskObject('/Width 5000 /Height 7000')), 35e6),
      undefined,
    );
    assert.equal(
      oversizedMask(pdf(image('/Mask [0 10]'), maskObject('/Width 9000 /Height 9000')), 35e6),
      undefined,
    );
    assert.equal(
      oversizedMask(pdf(image('/SMaskInData 1'), maskObject('/Width 9000 /Height 9000')), 35e6),
      undefined,
    );
    const twelve = `${pdf(image('/SMask 2 0 R'), maskObject('/Width 10 /Height 10'))}12 0 obj\n${maskObject('/Width 9000 /Height 9000')}\nendobj\n`;
    assert.equal(oversizedMask(Buffer.from(twelve, 'latin1'), 35e6), undefined);
  });
});
