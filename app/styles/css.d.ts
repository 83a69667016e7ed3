// The classic Remix compiler turns a stylesheet import into its fingerprinted URL.
declare module "*.css" {
  const href: string;
  export default href;
}
