// Contact details found in a document's text, offered to a recruiter as suggestions: they are
// never written over what the candidate or a recruiter entered.

export interface ContactSuggestions {
  emails: string[];
  phones: string[];
  links: string[];
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}/g;
// International or national numbers: a leading + or digit, then 7 to 15 digits with spaces, dots,
// dashes or one pair of brackets between them.
const PHONE = /(?:\+|\(|\b)\d[\d\s().-]{6,20}\d\b/g;
const LINK = /\bhttps?:\/\/[^\s<>"')\]]+|\b(?:www\.|linkedin\.com\/|github\.com\/)[^\s<>"')\]]+/gi;
const MAX_EACH = 5;

export function findContactSuggestions(text: string): ContactSuggestions {
  const emails = unique((text.match(EMAIL) ?? []).map((email) => email.toLowerCase()));
  const phones = unique(
    (text.match(PHONE) ?? [])
      .map((phone) => phone.trim())
      .filter((phone) => {
        const digits = phone.replace(/\D/g, '');
        // Dates and years ("2019 - 2023", "01.02.2020") are not phone numbers.
        return digits.length >= 7 && digits.length <= 15 && !/^\d{4}\s*[-–]\s*\d{4}$/.test(phone) && !/^\d{1,2}[./]\d{1,2}[./]\d{2,4}$/.test(phone);
      }),
  );
  const links = unique(
    (text.match(LINK) ?? []).map((link) => link.replace(/[.,;:]+$/, '')).map((link) => (/^https?:\/\//i.test(link) ? link : `https://${link}`)),
  );
  return { emails: emails.slice(0, MAX_EACH), phones: phones.slice(0, MAX_EACH), links: links.slice(0, MAX_EACH) };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
