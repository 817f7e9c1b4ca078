// ISO 4217 currency codes a salary can be paid in: the circulating currencies of the ISO 4217
// list (amendment 179, 2025), including codes still valid during a changeover (ANG/XCG, SLL/SLE,
// ZWL/ZWG). Left out on purpose: precious metals (XAU, XAG, XPD, XPT), fund and accounting units
// (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW, XBA-XBD, XDR, XSU, XUA) and the test and
// "no currency" codes (XTS, XXX): nobody is paid a salary in those.
export const CURRENCY_CODES: ReadonlySet<string> = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN ' +
    'BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL ' +
    'GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW ' +
    'KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN ' +
    'NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK ' +
    'SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU ' +
    'UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL'
  ).split(' '),
);

/** The code in its canonical (upper case) form, or undefined when it is not a known ISO 4217 code. */
export function normalizeCurrency(code: string): string | undefined {
  const upper = code.trim().toUpperCase();
  return CURRENCY_CODES.has(upper) ? upper : undefined;
}
