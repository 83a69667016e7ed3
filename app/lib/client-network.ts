/**
 * The network a client address stands for, as rate limits and sign-in throttles count it. An IPv4
 * address is one client. An IPv6 subscriber is usually handed a whole /64 (18 trillion trillion
 * addresses), so counting per address would let one sender use a fresh address for every request:
 * IPv6 is counted per /64. An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientNetwork(address: string): string {
  const text = address.trim().toLowerCase();
  if (!text.includes(":")) return text;
  const groups = expandIPv6(text);
  if (!groups) return text;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address ("::" and a dotted IPv4 tail allowed), or null. */
function expandIPv6(text: string): number[] | null {
  let body = text;
  const dotted = /(?<=:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(body);
  if (dotted) {
    const bytes = dotted.slice(1).map(Number);
    if (bytes.some((byte) => byte > 255)) return null;
    const high = ((bytes[0] << 8) | bytes[1]).toString(16);
    const low = ((bytes[2] << 8) | bytes[3]).toString(16);
    body = `${body.slice(0, dotted.index)}${high}:${low}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  if (![...head, ...rest].every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const zeros = halves.length === 2 ? new Array<number>(8 - known).fill(0) : [];
  return [...head, ...zeros.map(String), ...rest].map((group) => Number.parseInt(group, 16));
}
