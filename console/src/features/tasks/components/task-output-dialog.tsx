/**
 * What a finished task produced: for Suno each song with its cover, a playable audio player, the
 * video and the lyrics (a lyrics task shows its title and text); for Kling the generated videos.
 * Opened from the task table's output cell.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import type { KlingReply, SunoLyrics, SunoSong, TaskView } from '@contract/tasks'

const isKling = (row: TaskView) => row.platform === 'kling'
const songsOf = (row: TaskView): SunoSong[] => (!isKling(row) && Array.isArray(row.data) ? row.data : [])
const lyricsOf = (row: TaskView): SunoLyrics | null => (!isKling(row) && row.data && !Array.isArray(row.data) ? (row.data as SunoLyrics) : null)
const videosOf = (row: TaskView) => (isKling(row) ? ((row.data as KlingReply | null)?.data?.task_result?.videos ?? []).filter((v) => v.url) : [])

/** Whether the task has anything to show. */
export const hasOutput = (row: TaskView) => songsOf(row).some((s) => s.audio_url || s.video_url || s.text) || Boolean(lyricsOf(row)?.text) || videosOf(row).length > 0

function Song({ song }: { song: SunoSong }) {
  const { t } = useTranslation('tasks')
  return (
    <section className="grid gap-3 rounded-lg border p-3" data-testid="task-song">
      <div className="flex items-center gap-3">
        {song.image_url && <img src={song.image_url} alt="" className="size-14 shrink-0 rounded-md border object-cover" loading="lazy" />}
        <div className="min-w-0">
          <p className="truncate font-medium">{song.title || t('output.untitled')}</p>
          <p className="truncate text-xs text-muted-foreground">
            {[song.model_name, song.metadata?.tags, song.metadata?.duration ? t('output.length', { s: Math.round(song.metadata.duration) }) : ''].filter(Boolean).join(' · ')}
          </p>
        </div>
      </div>
      {song.audio_url && <audio controls preload="none" src={song.audio_url} className="w-full" aria-label={t('output.audio')} data-testid="task-audio" />}
      {song.video_url && (
        <video
          controls
          preload="none"
          src={song.video_url}
          poster={song.image_large_url || song.image_url}
          className="max-h-64 w-full rounded-md bg-black"
          aria-label={t('output.video')}
        />
      )}
      {song.text && <pre className="max-h-48 overflow-y-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap">{song.text}</pre>}
    </section>
  )
}

export function TaskOutputDialog({ row }: { row: TaskView }) {
  const { t } = useTranslation('tasks')
  const songs = songsOf(row)
  const lyrics = lyricsOf(row)
  const videos = videosOf(row)
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button variant="outline" size="sm" className="h-7" onClick={() => setOpen(true)} data-testid="task-output-open">
        {isKling(row) ? t('output.openVideo', { count: videos.length }) : row.action === 'LYRICS' ? t('output.openLyrics') : t('output.openMusic', { count: songs.length })}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-xl">
          <DialogHeader>
            <DialogTitle>{row.properties?.title || lyrics?.title || t('output.title', { id: row.id })}</DialogTitle>
            <DialogDescription>{row.properties?.prompt || t('output.noPrompt')}</DialogDescription>
          </DialogHeader>
          {isKling(row) ? (
            <div className="grid gap-3">
              {videos.map((video, i) => (
                <video
                  key={video.id ?? i}
                  controls
                  preload="none"
                  src={video.url}
                  className="max-h-[60vh] w-full rounded-md bg-black"
                  aria-label={t('output.video')}
                  data-testid="task-video"
                />
              ))}
            </div>
          ) : lyrics ? (
            <pre className="max-h-[60vh] overflow-y-auto rounded-md bg-muted p-3 text-sm whitespace-pre-wrap" data-testid="task-lyrics">
              {lyrics.text}
            </pre>
          ) : (
            <div className="grid gap-3">
              {songs.map((song) => (
                <Song key={song.id} song={song} />
              ))}
            </div>
          )}
        </DialogContent>
      </Dialog>
    </>
  )
}
