import { strict as assert } from 'node:assert';
import { deflateSync } from 'node:zlib';
import { countConversation, imageSize, imageTokens, requestSegments, textTokens, COMPUTER_SYSTEM_PROMPT_TOKENS, COMPUTER_TOOL_DEFINITION_TOKENS } from '../../bench/tokenCount';

// The token bench's estimate: text by length, images by their size, the native computer tool by
// its documented fixed cost, and the prompt cache read at the breakpoints earlier requests wrote.

/** A minimal PNG header of the given size (the counter reads only the IHDR). */
function png(width: number, height: number, seed = 0): string {
  const header = Buffer.alloc(33);
  header.writeUInt32BE(0x89504e47, 0);
  header.writeUInt32BE(0x0d0a1a0a, 4);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return Buffer.concat([header, deflateSync(Buffer.from([seed]))]).toString('base64');
}

const image = (data: string): Record<string, unknown> => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } });
const breakpoint = { cache_control: { type: 'ephemeral' } };

describe('token bench: input tokens estimated from a request body', () => {
  it('text by 3.5 characters a token, images by width x height / 750 at the size sent', () => {
    assert.equal(textTokens('x'.repeat(35)), 10);
    assert.deepEqual(imageSize(png(1429, 804)), { width: 1429, height: 804 });
    assert.equal(imageTokens({ width: 1429, height: 804 }), 1532);
    assert.throws(() => imageSize(Buffer.from('GIF89a....').toString('base64')), /neither a PNG nor a JPEG/);
  });

  it('an image costs its size, not its base64 length; a native computer tool its documented fixed cost', () => {
    const [tool, block] = requestSegments({
      tools: [{ type: 'computer_20251124', name: 'computer', display_width_px: 1429, display_height_px: 804 }],
      messages: [{ role: 'user', content: [image(png(750, 100))] }],
    });
    assert.equal(tool!.tokens, COMPUTER_SYSTEM_PROMPT_TOKENS + COMPUTER_TOOL_DEFINITION_TOKENS);
    assert.ok(block!.tokens >= 100 && block!.tokens < 130, `${block!.tokens}: 100 for the image plus its block's JSON`);
  });

  it('a request reads the prefix the previous one marked, and a changed block early in the history breaks it', () => {
    const tools = [{ name: 'click', description: 'Click a thing'.repeat(20), input_schema: { type: 'object' }, ...breakpoint }];
    const first = { tools, messages: [{ role: 'user', content: [{ type: 'text', text: 'task '.repeat(100), ...breakpoint }] }] };
    const second = {
      tools,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'task '.repeat(100) }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok', ...breakpoint }] },
      ],
    };
    const changed = { ...second, messages: [{ role: 'user', content: [{ type: 'text', text: 'other '.repeat(100) }] }, second.messages[1]!] };

    const [a, b] = countConversation([first, second]);
    assert.equal(a!.cacheRead, 0);
    assert.equal(a!.cacheWrite, a!.fresh);
    assert.equal(b!.cacheRead, a!.fresh, 'the whole first request is read back');
    assert.equal(b!.cacheWrite, b!.fresh - a!.fresh);
    assert.ok(b!.cacheAdjusted < b!.fresh);

    const [, c] = countConversation([first, changed]);
    const toolTokens = requestSegments(first)[0]!.tokens;
    assert.equal(c!.cacheRead, toolTokens, 'only the tools are still a cached prefix');
  });
});
