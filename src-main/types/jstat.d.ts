/** The part of jStat (no published types) that the dataset statistics use. */
declare module 'jstat' {
  const jStat: {
    chisquare: { cdf(x: number, degreesOfFreedom: number): number };
  };
  export default jStat;
}
