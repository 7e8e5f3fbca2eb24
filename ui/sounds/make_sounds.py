#!/usr/bin/env python3
"""Generate the UI's feedback sounds (tiny 16-bit mono WAVs) with the standard library only.

Run from anywhere: python3 ui/sounds/make_sounds.py  (writes move/blocked/merge/win.wav beside it).
The output is deterministic, so re-running it changes nothing.
"""
import math
import os
import struct
import wave

RATE = 22050
HERE = os.path.dirname(os.path.abspath(__file__))


def envelope(i, n, attack=0.004, decay=18.0):
    t = i / RATE
    a = min(1.0, t / attack) if attack > 0 else 1.0
    fade_out = min(1.0, (n - i) / (RATE * 0.004))  # no click at the end
    return a * math.exp(-decay * t) * fade_out


def tone(freqs, dur, decay, gain=0.5, harmonics=(1.0,), start_phase=0.0):
    """A note whose frequency glides through `freqs` (list) over `dur` seconds."""
    n = int(RATE * dur)
    out = []
    phase = start_phase
    for i in range(n):
        pos = i / max(1, n - 1) * (len(freqs) - 1)
        k = min(int(pos), len(freqs) - 2) if len(freqs) > 1 else 0
        f = freqs[0] if len(freqs) == 1 else freqs[k] + (freqs[k + 1] - freqs[k]) * (pos - k)
        phase += 2 * math.pi * f / RATE
        s = sum(h * math.sin(phase * (j + 1)) for j, h in enumerate(harmonics))
        out.append(gain * envelope(i, n, decay=decay) * s / sum(harmonics))
    return out


def mix(*parts):
    n = max(off + len(p) for off, p in parts)
    out = [0.0] * n
    for off, p in parts:
        for i, v in enumerate(p):
            out[off + i] += v
    return out


def write(name, samples):
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = min(1.0, 0.9 / peak)
    frames = b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s * scale)) * 32767)) for s in samples)
    with wave.open(os.path.join(HERE, f"{name}.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def main():
    # move: a short wooden "tock"
    write("move", tone([820, 620], 0.06, decay=70, gain=0.6, harmonics=(1.0, 0.35, 0.12)))
    # blocked: a low, dull bump
    write("blocked", tone([190, 140], 0.11, decay=30, gain=0.7, harmonics=(1.0, 0.5, 0.25)))
    # merge: a quick rising two-note chirp
    write("merge", mix((0, tone([660], 0.07, decay=35, gain=0.45)), (int(RATE * 0.045), tone([990], 0.09, decay=30, gain=0.45))))
    # win: an arpeggio C5 E5 G5 C6
    notes = [523.25, 659.25, 783.99, 1046.5]
    parts = [(int(RATE * 0.085 * i), tone([f], 0.32 if i == 3 else 0.16, decay=9 if i == 3 else 16, gain=0.4, harmonics=(1.0, 0.2))) for i, f in enumerate(notes)]
    write("win", mix(*parts))


if __name__ == "__main__":
    main()
