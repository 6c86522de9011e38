package io.kplane.kubelet.runtime;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The Docker Engine's multiplexed stream (a hijacked exec or attach without a tty): frames of an 8-byte
 * header — the stream (0 stdin, 1 stdout, 2 stderr), three zero bytes, the payload's size as a 4-byte
 * big-endian integer — and the payload. With a tty the engine sends the terminal's bytes raw instead.
 */
final class EngineFrames {
    private EngineFrames() {}

    /** Copies {@code in} to {@code stdout}/{@code stderr} until the engine ends the stream. */
    static void demultiplex(InputStream in, OutputStream stdout, OutputStream stderr) throws IOException {
        DataInputStream frames = new DataInputStream(in);
        byte[] header = new byte[8];
        byte[] chunk = new byte[32 * 1024];
        while (true) {
            try {
                frames.readFully(header);
            } catch (EOFException e) {
                return; // the end of the stream falls between frames
            }
            OutputStream target = header[0] == 2 ? stderr : stdout;
            int size = ((header[4] & 0xff) << 24)
                    | ((header[5] & 0xff) << 16)
                    | ((header[6] & 0xff) << 8)
                    | (header[7] & 0xff);
            while (size > 0) {
                int n = frames.read(chunk, 0, Math.min(size, chunk.length));
                if (n < 0) {
                    return;
                }
                target.write(chunk, 0, n);
                size -= n;
            }
        }
    }

    /** With a tty: everything is the terminal's output. */
    static void copyRaw(InputStream in, OutputStream stdout) throws IOException {
        in.transferTo(stdout);
    }
}
