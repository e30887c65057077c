// The wire side of GAI's Wayland helper (wlrHelperScript.ts), python3 standard library only:
// Debian 12 packages no Python Wayland binding, and the protocol is small. A message is a header
// (object id, size << 16 | opcode) and 32-bit arguments; file descriptors travel beside it.
export const WLR_WIRE_SCRIPT = String.raw`
import array, json, os, socket, struct, sys, threading, time

def send_line(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()

class Wayland:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.next_id = 3  # 1: wl_display, 2: wl_registry
        self.globals = {}
        self.output_count = 0
        self.done = set()
        self.callbacks = set()
        # Objects whose events someone listens to: id -> function(opcode, body).
        self.handlers = {}
        self.error = None
        self.buffer = b''
        self.lock = threading.Lock()

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def request(self, obj, opcode, fmt='', *args, fds=None):
        body = b''
        for kind, value in zip(fmt, args):
            if kind in 'uo':
                body += struct.pack('=I', value)
            elif kind == 'i':
                body += struct.pack('=i', value)
            elif kind == 'f':
                body += struct.pack('=i', int(round(value * 256)))
            elif kind == 'h':
                pass  # a file descriptor: sent beside the message (fds)
            elif kind == 's':
                data = value.encode() + b'\0'
                body += struct.pack('=I', len(data)) + data + b'\0' * ((4 - len(data) % 4) % 4)
        message = struct.pack('=II', obj, ((8 + len(body)) << 16) | opcode) + body
        with self.lock:
            if fds:
                self.sock.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', fds))])
            else:
                self.sock.sendall(message)

    def read_events(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError('the compositor closed the connection')
        self.buffer += data
        while len(self.buffer) >= 8:
            obj, word = struct.unpack_from('=II', self.buffer)
            size, opcode = word >> 16, word & 0xffff
            if len(self.buffer) < size:
                break
            body, self.buffer = self.buffer[8:size], self.buffer[size:]
            self.event(obj, opcode, body)

    def event(self, obj, opcode, body):
        if obj == 1 and opcode == 0:  # wl_display.error(object, code, message)
            _, code, length = struct.unpack_from('=III', body)
            self.error = 'Wayland protocol error %d: %s' % (code, body[12:12 + length - 1].decode(errors='replace'))
        elif obj == 2 and opcode == 0:  # wl_registry.global(name, interface, version)
            name, length = struct.unpack_from('=II', body)
            interface = body[8:8 + length - 1].decode()
            version = struct.unpack_from('=I', body, 8 + ((length + 3) // 4) * 4)[0]
            self.globals[interface] = (name, version)
            if interface == 'wl_output':
                self.output_count += 1
        elif obj in self.callbacks:
            self.done.add(obj)
        elif obj in self.handlers:
            self.handlers[obj](opcode, body)



    def roundtrip(self):
        callback = self.new_id()
        self.callbacks.add(callback)
        self.request(1, 0, 'u', callback)  # wl_display.sync
        while callback not in self.done:
            if self.error:
                raise RuntimeError(self.error)
            self.read_events()
        self.done.discard(callback)
        if self.error:
            raise RuntimeError(self.error)

    def bind(self, interface, version):
        if interface not in self.globals:
            return None
        name, offered = self.globals[interface]
        obj = self.new_id()
        self.request(2, 0, 'usuu', name, interface, min(version, offered), obj)
        return obj
`;
