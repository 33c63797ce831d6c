/**
 * The texts of the mails the gateway sends: verification code, password-reset link, the notice
 * that the password changed, the new-device sign-in notice, and low-quota / exhausted-quota reminders. Each mail is English followed by Chinese, in plain text
 * and a simple HTML version, and names the site (SystemName).
 */
import type { MailMessage } from './mailer'

type Mail = Omit<MailMessage, 'to'>

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)

function layout(site: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p>${p}</p>`).join('\n')
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.6">\n<h3>${escapeHtml(site)}</h3>\n${body}\n</body></html>`
}

export function verificationMail(site: string, code: string, minutes: number): Mail {
  return {
    subject: `${site} email verification code`,
    text: [
      `Your ${site} verification code is: ${code}`,
      `It is valid for ${minutes} minutes. If you did not request it, ignore this mail.`,
      '',
      `您的 ${site} 邮箱验证码为：${code}`,
      `验证码 ${minutes} 分钟内有效。如果不是您本人操作，请忽略本邮件。`,
    ].join('\n'),
    html: layout(site, [
      `Your verification code is: <strong>${escapeHtml(code)}</strong>`,
      `It is valid for ${minutes} minutes. If you did not request it, ignore this mail.`,
      `您的邮箱验证码为：<strong>${escapeHtml(code)}</strong>，${minutes} 分钟内有效。如果不是您本人操作，请忽略本邮件。`,
    ]),
  }
}

export function passwordResetMail(site: string, link: string, minutes: number): Mail {
  const href = escapeHtml(link)
  return {
    subject: `${site} password reset`,
    text: [
      `Open this link to reset your ${site} password:`,
      link,
      `The link is valid for ${minutes} minutes and works once. If you did not ask for it, ignore this mail.`,
      '',
      `打开以下链接重置您的 ${site} 密码：`,
      link,
      `链接 ${minutes} 分钟内有效且只能使用一次。如果不是您本人操作，请忽略本邮件。`,
    ].join('\n'),
    html: layout(site, [
      `Click <a href="${href}">here</a> to reset your password, or open: ${href}`,
      `The link is valid for ${minutes} minutes and works once. If you did not ask for it, ignore this mail.`,
      `点击<a href="${href}">此处</a>重置您的密码。链接 ${minutes} 分钟内有效且只能使用一次。如果不是您本人操作，请忽略本邮件。`,
    ]),
  }
}

/** How the password changed, as the notice tells it. */
export type PasswordChange = 'changed' | 'reset'

export function passwordChangedMail(site: string, username: string, how: PasswordChange, when: string): Mail {
  const en =
    how === 'reset'
      ? `The password of your ${site} account "${username}" was reset with an emailed link at ${when} (UTC).`
      : `The password of your ${site} account "${username}" was changed at ${when} (UTC).`
  const zh = how === 'reset' ? `您的 ${site} 账号“${username}”的密码已于 ${when}（UTC）通过邮件链接重置。` : `您的 ${site} 账号“${username}”的密码已于 ${when}（UTC）修改。`
  const advice = 'All sessions and the personal access token were signed out. If this was not you, reset your password at once and contact the administrator.'
  const adviceZh = '所有登录会话和个人访问令牌均已失效。如果不是您本人操作，请立即重置密码并联系管理员。'
  return securityNotice(site, `${site} password ${how === 'reset' ? 'reset' : 'changed'}`, [en, advice], [zh, adviceZh])
}

/** Root removed the account's two-factor sign-in (issue 36). */
export function twoFactorResetMail(site: string, username: string, when: string): Mail {
  const en = `An administrator turned off two-factor sign-in on your ${site} account "${username}" at ${when} (UTC). You can sign in with your password alone until you set it up again in your profile.`
  const zh = `管理员已于 ${when}（UTC）关闭您的 ${site} 账号“${username}”的两步验证。在个人设置中重新开启之前，仅凭密码即可登录。`
  const advice = 'If you did not ask for this, contact the administrator at once.'
  const adviceZh = '如果这不是您申请的，请立即联系管理员。'
  return securityNotice(site, `${site}: two-factor sign-in turned off`, [en, advice], [zh, adviceZh])
}

/** A sign-in from a device and address never seen for the account (NewDeviceSignInNotice). */
export function newDeviceMail(site: string, username: string, device: string, ip: string, when: string): Mail {
  const en = `Your ${site} account "${username}" was signed in from a new device: ${device}, address ${ip}, at ${when} (UTC).`
  const advice = 'If this was you, nothing needs to be done. If not, change your password at once and sign out the other sessions in your profile.'
  const zh = `您的 ${site} 账号“${username}”于 ${when}（UTC）在新设备上登录：${device}，地址 ${ip}。`
  const adviceZh = '如果是您本人操作，无需处理；否则请立即修改密码，并在个人设置中退出其他会话。'
  return securityNotice(site, `${site}: new sign-in to your account`, [en, advice], [zh, adviceZh])
}

/** One account-security notice: the English lines, a blank line, then the Chinese ones. */
function securityNotice(site: string, subject: string, [en, advice]: [string, string], [zh, adviceZh]: [string, string]): Mail {
  return {
    subject,
    text: [en, advice, '', zh, adviceZh].join('\n'),
    html: layout(site, [escapeHtml(en), escapeHtml(advice), escapeHtml(zh + adviceZh)]),
  }
}

export function quotaReminderMail(site: string, kind: 'low' | 'exhausted', balance: string, topUpUrl: string): Mail {
  const en =
    kind === 'exhausted'
      ? `Your ${site} quota is used up (balance ${balance}). Requests will be refused until you top up.`
      : `Your ${site} quota is running low: the balance is ${balance}.`
  const zh = kind === 'exhausted' ? `您的 ${site} 额度已用尽（余额 ${balance}），充值前请求将被拒绝。` : `您的 ${site} 额度即将用尽，当前余额 ${balance}。`
  const topUpText = topUpUrl ? `Top up here: ${topUpUrl}` : 'Please top up in the console.'
  return {
    subject: kind === 'exhausted' ? `${site}: your quota is used up` : `${site}: your quota is running low`,
    text: [en, topUpText, '', zh, topUpUrl ? `充值地址：${topUpUrl}` : '请在控制台充值。'].join('\n'),
    html: layout(site, [escapeHtml(en), topUpUrl ? `Top up here: <a href="${escapeHtml(topUpUrl)}">${escapeHtml(topUpUrl)}</a>` : 'Please top up in the console.', escapeHtml(zh)]),
  }
}

/** A key owner's budget notice (worker/notify/user-notices.ts): `text` says which key, how much and until when. */
export function budgetNoticeMail(site: string, kind: 'threshold' | 'exhausted', text: string, keysUrl: string): Mail {
  const zh = kind === 'exhausted' ? `您的一个 API 密钥已用完本周期预算，周期结束前的请求将被拒绝。` : `您的一个 API 密钥已用掉本周期预算的 80%。`
  return {
    subject: kind === 'exhausted' ? `${site}: an API key spent its budget` : `${site}: an API key reached 80 % of its budget`,
    text: [text, keysUrl ? `Your keys: ${keysUrl}` : '', '', zh].join('\n'),
    html: layout(site, [escapeHtml(text), keysUrl ? `Your keys: <a href="${escapeHtml(keysUrl)}">${escapeHtml(keysUrl)}</a>` : '', escapeHtml(zh)].filter(Boolean)),
  }
}

/** A plan's renewal order is waiting to be paid before the subscription expires. */
export function renewalDueMail(site: string, text: string, plansUrl: string): Mail {
  const zh = '您的套餐即将到期，续订订单已生成，请在到期前支付。'
  return {
    subject: `${site}: your plan is due for renewal`,
    text: [text, plansUrl ? `Pay it here: ${plansUrl}` : '', '', zh].join('\n'),
    html: layout(site, [escapeHtml(text), plansUrl ? `Pay it here: <a href="${escapeHtml(plansUrl)}">${escapeHtml(plansUrl)}</a>` : '', escapeHtml(zh)].filter(Boolean)),
  }
}
