import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { MODERATION_MESSAGES, REPORT_REASON_LABELS, REPORT_REASONS, SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { ReportHost } from '../../app/ReportHost';
import { openReport, useCanReport, useReportStore } from '../../lib/reports';
import { useSessionStore } from '../../lib/session/sessionStore';
import { bodyOf, requestsOf, stubApi } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';

const me = buildProfile({ id: '50000000-0000-4000-8000-00000000a001' });
const POST_ID = '50000000-0000-4000-8000-00000000c001';
const AUTHOR_ID = '50000000-0000-4000-8000-00000000b001';
const subject = { targetType: 'post' as const, targetId: POST_ID, name: 'Luis Pérez' };
const created = () => jsonResponse(201, { id: '50000000-0000-4000-8000-00000000d001', message: MODERATION_MESSAGES.reported });

/** An item's 'Reportar' as a menu would offer it: shown while the viewer may still report it. */
function Opener() {
  const canReport = useCanReport('post', POST_ID, AUTHOR_ID);
  const navigate = useNavigate();
  if (!canReport) return <p>Ya reportado</p>;
  return (
    <>
      <button type="button" onClick={() => openReport(subject)}>
        Reportar publicación
      </button>
      {/* Outside the dialog: what the browser's back button would do while it is open. */}
      <button type="button" onClick={() => navigate('/login')}>
        Ir a otra página
      </button>
    </>
  );
}

function renderOpener() {
  return render(
    <MemoryRouter>
      <Routes>
        <Route path="/" element={<Opener />} />
        <Route path="/login" element={<h1>Login</h1>} />
      </Routes>
      <ReportHost />
    </MemoryRouter>,
  );
}

async function openDialog() {
  const user = userEvent.setup();
  renderOpener();
  await user.click(screen.getByRole('button', { name: 'Reportar publicación' }));
  const dialog = await screen.findByRole('dialog', { name: SAFETY_UI.report });
  return { user, dialog };
}

describe('ReportDialog', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    useReportStore.setState({ subject: null, reported: {} });
  });

  it('lists the reasons as a labelled radio group, names the item, and takes focus', async () => {
    stubApi({});
    const { dialog } = await openDialog();
    expect(within(dialog).getByText('Publicación de Luis Pérez')).toBeTruthy();
    const group = within(dialog).getByRole('group', { name: MODERATION_MESSAGES.reportReasonLabel });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent)).toEqual(REPORT_REASONS.map((r) => REPORT_REASON_LABELS[r]));
    expect(radios.every((radio) => !(radio as HTMLInputElement).checked)).toBe(true);
    expect(within(dialog).getByRole('textbox', { name: MODERATION_MESSAGES.reportCommentLabel })).toBeTruthy();
    expect(within(dialog).getByText('0/500')).toBeTruthy();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('asks for a reason, then sends the report and thanks; the item cannot be reported again', async () => {
    const fetchMock = stubApi({ 'POST /api/reports': created });
    const { user, dialog } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    expect(within(dialog).getByText(SAFETY_UI.reportReasonRequired)).toBeTruthy();
    expect(within(dialog).getByRole('group').getAttribute('aria-describedby')).toBeTruthy();
    expect(requestsOf(fetchMock)).toEqual([]);

    await user.click(within(dialog).getByRole('radio', { name: 'Acoso o insultos' }));
    expect(within(dialog).queryByText(SAFETY_UI.reportReasonRequired)).toBeNull();
    await user.type(within(dialog).getByRole('textbox'), '  Insulta a todos  ');
    expect(within(dialog).getByText('15/500')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));

    expect((await within(dialog).findByRole('status')).textContent).toBe(MODERATION_MESSAGES.reported);
    expect(bodyOf(fetchMock, 'POST /api/reports')).toEqual({ targetType: 'post', targetId: POST_ID, reason: 'harassment', comment: 'Insulta a todos' });
    expect(screen.getByText('Ya reportado')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Listo' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useReportStore.getState().subject).toBeNull();
  });

  it('sends no comment when it is left empty', async () => {
    const fetchMock = stubApi({ 'POST /api/reports': created });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.type(within(dialog).getByRole('textbox'), '   ');
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    await within(dialog).findByText(MODERATION_MESSAGES.reported);
    expect(bodyOf(fetchMock, 'POST /api/reports')).toEqual({ targetType: 'post', targetId: POST_ID, reason: 'spam' });
  });

  it('refuses a comment over 500 characters (an emoji counts as one) without sending', async () => {
    const fetchMock = stubApi({ 'POST /api/reports': created });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'Otro' }));
    const comment = within(dialog).getByRole('textbox');
    fireEvent.change(comment, { target: { value: '😀'.repeat(500) } });
    expect(within(dialog).getByText('500/500')).toBeTruthy();
    expect(comment.getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(comment, { target: { value: '😀'.repeat(501) } });
    expect(within(dialog).getByText('501/500')).toBeTruthy();
    expect(comment.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText(MODERATION_MESSAGES.reportCommentTooLong)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    expect(requestsOf(fetchMock)).toEqual([]);
  });

  it('takes the server’s 409 as already reported, and remembers it', async () => {
    stubApi({ 'POST /api/reports': () => jsonResponse(409, { statusCode: 409, error: 'Conflict', message: MODERATION_MESSAGES.alreadyReported }) });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    expect((await within(dialog).findByRole('status')).textContent).toBe(MODERATION_MESSAGES.alreadyReported);
    expect(screen.getByText('Ya reportado')).toBeTruthy();
  });

  it('shows the server’s message on a failure and keeps the form; a bare failure gets the generic text', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    let answer = () => jsonResponse(404, { statusCode: 404, error: 'Not Found', message: MODERATION_MESSAGES.targetNotFound });
    const fetchMock = stubApi({ 'POST /api/reports': () => answer() });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'Violencia' }));
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(MODERATION_MESSAGES.targetNotFound);
    expect((within(dialog).getByRole('radio', { name: 'Violencia' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Reportar publicación' })).toBeTruthy();

    answer = () => new Response('', { status: 502 });
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(MODERATION_MESSAGES.reportFailed));
    expect(requestsOf(fetchMock)).toEqual(['POST /api/reports', 'POST /api/reports']);
    expect(useReportStore.getState().reported).toEqual({});
  });

  it('closes with Escape or Cancelar and gives focus back to what opened it', async () => {
    stubApi({});
    const { user } = await openDialog();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reportar publicación' }));

    await user.click(screen.getByRole('button', { name: 'Reportar publicación' }));
    const dialog = await screen.findByRole('dialog', { name: SAFETY_UI.report });
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes when the fan goes to another page', async () => {
    stubApi({});
    const { user } = await openDialog();
    await user.click(screen.getByRole('button', { name: 'Ir a otra página' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useReportStore.getState().subject).toBeNull();
  });

  it('asks a visitor to sign in instead', async () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    const fetchMock = stubApi({});
    const { user, dialog } = await openDialog();
    expect(within(dialog).getByText(SAFETY_UI.reportSignIn)).toBeTruthy();
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await user.click(within(dialog).getByRole('link', { name: SAFETY_UI.reportSignInLink }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsOf(fetchMock)).toEqual([]);
  });

  it('remembers reports per signed-in fan: another account may report the same item', async () => {
    stubApi({ 'POST /api/reports': created });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    await within(dialog).findByText(MODERATION_MESSAGES.reported);
    await user.click(within(dialog).getByRole('button', { name: 'Listo' }));
    expect(screen.getByText('Ya reportado')).toBeTruthy();

    useSessionStore.setState({ user: buildProfile(), status: 'ready' });
    expect(await screen.findByRole('button', { name: 'Reportar publicación' })).toBeTruthy();
  });
});
