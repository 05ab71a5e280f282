import zlib from "node:zlib";

/**
 * Checkpoint payloads for the upload tests. A PyTorch checkpoint (`torch.save`) is a ZIP archive
 * whose first entry is `<archive>/data.pkl`; these are written the same way (stored entries), with
 * `filler` bytes of tensor data so that a test can choose the size. A TF.js checkpoint is the JSON
 * document the generated tfjs script writes.
 */
export function torchCheckpoint(filler = 256, archive = "archive"): Uint8Array<ArrayBuffer> {
  const entries: [string, Buffer][] = [
    [`${archive}/data.pkl`, Buffer.from([0x80, 0x02, 0x7d, 0x71, 0x00, 0x2e])],
    [`${archive}/data/0`, Buffer.alloc(filler, 7)],
    [`${archive}/version`, Buffer.from("3\n")],
  ];
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const n = Buffer.from(name);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(data.length, 20);
    cd.writeUInt32LE(data.length, 24);
    cd.writeUInt16LE(n.length, 28);
    cd.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    central.push(cd, n);
    offset += local.length + n.length + data.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Uint8Array.from(Buffer.concat([...locals, cdBytes, end]));
}

/** The checkpoint document the generated TF.js script writes (`epoch-N.tfjs.json`). */
export function tfjsCheckpoint(epoch: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    JSON.stringify({
      format: "layerline-tfjs-checkpoint",
      epoch,
      step: epoch * 10,
      metrics: { loss: 1 / epoch },
      best_score: 1 / epoch,
      best_epoch: epoch,
      weights: { shapes: [[2]], data: "AAAAAAAAAAA=" },
      optimizer: { names: [], shapes: [], data: "" },
      best_weights: null,
    }),
  );
}
