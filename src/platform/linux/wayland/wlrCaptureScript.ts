// The screen side of GAI's Wayland helper (wlrHelperScript.ts): wlr-screencopy into a shared
// memory buffer of our own, no process per capture. Each capture is a fresh memfd that Node reads
// through /proc/PID/fd/N and then releases; the pixels never cross the pipe.
export const WLR_CAPTURE_SCRIPT = String.raw`
# wl_shm formats whose bytes GAI turns into RGBA (little-endian words: B G R A/X, or R G B A/X).
SHM_FORMATS = {0: 'bgra', 1: 'bgra', 0x34324241: 'rgba', 0x34324258: 'rgba'}

class Capture:
    def __init__(self, wl):
        self.wl = wl
        self.shm = wl.bind('wl_shm', 1)
        self.manager = wl.bind('zwlr_screencopy_manager_v1', 1)
        # One wl_output global per monitor: with more than one, where a region lies needs the
        # layout, and grim does it.
        self.output = wl.bind('wl_output', 1)
        self.kept = {}
        if self.shm is None or self.manager is None or self.output is None:
            self.problem = 'the compositor offers no wlr-screencopy'
        elif wl.output_count > 1:
            self.problem = 'more than one monitor'
        else:
            self.problem = None

    def capture(self, x, y, width, height):
        if self.problem:
            raise RuntimeError(self.problem)
        wl = self.wl
        frame = wl.new_id()
        state = {}
        def on_frame(opcode, body):
            if opcode == 0:  # buffer(format, width, height, stride)
                state['buffer'] = struct.unpack_from('=IIII', body)
            elif opcode == 1:  # flags
                state['flags'] = struct.unpack_from('=I', body)[0]
            elif opcode == 2:  # ready
                state['ready'] = True
            elif opcode == 3:  # failed
                state['failed'] = True
        wl.handlers[frame] = on_frame
        try:
            wl.request(self.manager, 1, 'uiuiiii', frame, 0, self.output, x, y, width, height)
            while 'buffer' not in state and 'failed' not in state:
                if wl.error:
                    raise RuntimeError(wl.error)
                wl.read_events()
            if 'failed' in state:
                raise RuntimeError('the compositor could not copy the screen')
            fmt, w, h, stride = state['buffer']
            if fmt not in SHM_FORMATS:
                raise RuntimeError('a pixel format GAI does not read (0x%x)' % fmt)
            size = stride * h
            fd = os.memfd_create('gai-capture')
            os.ftruncate(fd, size)
            pool, buffer = wl.new_id(), wl.new_id()
            wl.request(self.shm, 0, 'uhi', pool, 0, size, fds=[fd])  # create_pool(id, fd, size)
            wl.request(pool, 0, 'uiiiiu', buffer, 0, w, h, stride, fmt)  # create_buffer
            wl.request(frame, 0, 'u', buffer)  # copy
            while 'ready' not in state and 'failed' not in state:
                if wl.error:
                    raise RuntimeError(wl.error)
                wl.read_events()
            wl.request(buffer, 0)  # wl_buffer.destroy
            wl.request(pool, 1)  # wl_shm_pool.destroy
            if 'failed' in state:
                os.close(fd)
                raise RuntimeError('the compositor could not copy the screen')
            self.kept[fd] = True
            return {'path': '/proc/%d/fd/%d' % (os.getpid(), fd), 'fd': fd, 'width': w, 'height': h, 'stride': stride,
                'order': SHM_FORMATS[fmt], 'yInvert': bool(state.get('flags', 0) & 1)}
        finally:
            wl.request(frame, 1)  # zwlr_screencopy_frame_v1.destroy
            wl.handlers.pop(frame, None)

    def release(self, fd):
        if self.kept.pop(fd, None):
            os.close(fd)
`;
