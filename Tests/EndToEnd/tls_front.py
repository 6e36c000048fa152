"""A TLS and HTTP/2 front for a local project, as hosted projects sit behind one: Debian's nginx with
certificates from a test CA that openssl makes here, at test time.

    front = TLSFront(directory, upstream_port=project.port)
    front.url("main")          # https://127.0.0.1:PORT, TLS 1.2/1.3, HTTP/2 by ALPN
    front.ca                   # the test CA (PEM), for --cacert / SSL_CERT_FILE
    front.log()                # access-log lines: port, protocol, TLS version, request, status,
                               # the apikey and Authorization headers nginx received
    front.stop()

The server blocks, by name: `main` (the front), `wrong_host` (a certificate of the CA for another
name), `untrusted` (a self-signed certificate), `h2_only` (answers 505 to anything but HTTP/2),
`redirect` (/r301/, /r302/, /r307/, /r308/ send the rest of the path to `elsewhere`),
`elsewhere` (https://localhost:PORT, another host, proxying to the project too), `slow` (the front
with answers sent at 256 KiB/s, through `throttle`), `h1` (the front without HTTP/2, which
gzips JSON answers: HTTP/1.1, chunked and compressed as nginx sends them). `main` passes Realtime's WebSocket upgrade on
(/realtime/v1/websocket, for wss://).
"""
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import time

from conftest import free_port

NAMES = ["main", "wrong_host", "untrusted", "h2_only", "redirect", "elsewhere", "slow", "throttle",
         "h1"]


def openssl(*args, cwd):
    result = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, f"openssl {' '.join(args)}: {result.stderr}"


def make_certificates(directory):
    """ca.pem/ca.key, server.pem (localhost, 127.0.0.1), wrong.pem (other.example) from the CA,
    self.pem (127.0.0.1, self-signed); EC P-256 keys, two days."""
    d = str(directory)
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=snm test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=d)
    for name, alt in [("server", "DNS:localhost,IP:127.0.0.1"), ("wrong", "DNS:other.example")]:
        (directory / f"{name}.ext").write_text(
            f"subjectAltName={alt}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n"
            "extendedKeyUsage=serverAuth\n")
        openssl("req", *curve, "-keyout", f"{name}.key", "-out", f"{name}.csr",
                "-subj", f"/CN={alt.split(',')[0].split(':')[1]}", cwd=d)
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext",
                cwd=d)
    openssl("req", "-x509", *curve, "-keyout", "self.key", "-out", "self.pem", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", cwd=d)


CONFIG = """
worker_processes 1;
daemon off;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 512; }}
http {{
  log_format snm '$server_port $server_protocol $ssl_protocol "$request" $status '
                 '"$http_apikey" "$http_authorization"';
  access_log {d}/access.log snm;
  client_body_temp_path {d}/tmp/body;
  proxy_temp_path {d}/tmp/proxy;
  fastcgi_temp_path {d}/tmp/fastcgi;
  uwsgi_temp_path {d}/tmp/uwsgi;
  scgi_temp_path {d}/tmp/scgi;
  ssl_protocols TLSv1.2 TLSv1.3;
  client_max_body_size 16m;
  upstream gateway {{ server 127.0.0.1:{upstream}; keepalive 8; }}
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_buffering off;
  proxy_read_timeout 120s;

  server {{
    listen 127.0.0.1:{main} ssl http2;
    ssl_certificate {d}/server.pem; ssl_certificate_key {d}/server.key;
    location / {{ proxy_pass http://gateway; }}
    # Realtime's WebSocket: the upgrade passed on, as hosted projects' front does.
    location /realtime/v1/websocket {{
      proxy_pass http://gateway;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_read_timeout 3600s;
    }}
  }}
  server {{
    listen 127.0.0.1:{wrong_host} ssl http2;
    ssl_certificate {d}/wrong.pem; ssl_certificate_key {d}/wrong.key;
    location / {{ proxy_pass http://gateway; }}
  }}
  server {{
    listen 127.0.0.1:{untrusted} ssl http2;
    ssl_certificate {d}/self.pem; ssl_certificate_key {d}/self.key;
    location / {{ proxy_pass http://gateway; }}
  }}
  server {{
    listen 127.0.0.1:{h2_only} ssl http2;
    ssl_certificate {d}/server.pem; ssl_certificate_key {d}/server.key;
    location / {{
      if ($server_protocol != "HTTP/2.0") {{ return 505; }}
      proxy_pass http://gateway;
    }}
  }}
  server {{
    listen 127.0.0.1:{redirect} ssl http2;
    ssl_certificate {d}/server.pem; ssl_certificate_key {d}/server.key;
    location ~ ^/r301/(.*)$ {{ return 301 https://localhost:{elsewhere}/$1$is_args$args; }}
    location ~ ^/r302/(.*)$ {{ return 302 https://localhost:{elsewhere}/$1$is_args$args; }}
    location ~ ^/r307/(.*)$ {{ return 307 https://localhost:{elsewhere}/$1$is_args$args; }}
    location ~ ^/r308/(.*)$ {{ return 308 https://localhost:{elsewhere}/$1$is_args$args; }}
  }}
  server {{
    listen 127.0.0.1:{elsewhere} ssl http2;
    ssl_certificate {d}/server.pem; ssl_certificate_key {d}/server.key;
    location / {{ proxy_pass http://gateway; }}
  }}
  server {{
    listen 127.0.0.1:{slow} ssl http2;
    ssl_certificate {d}/server.pem; ssl_certificate_key {d}/server.key;
    location / {{ proxy_pass http://127.0.0.1:{throttle}; }}
  }}
  server {{
    listen 127.0.0.1:{h1} ssl;
    ssl_certificate {d}/server.pem; ssl_certificate_key {d}/server.key;
    gzip on; gzip_types application/json; gzip_min_length 1;
    location / {{ proxy_pass http://gateway; }}
  }}
  # limit_rate does not hold back an HTTP/2 stream in this nginx: the throttle sits behind the
  # front, on plain HTTP/1.1.
  server {{
    listen 127.0.0.1:{throttle};
    location / {{ proxy_buffering on; limit_rate 256k; proxy_pass http://gateway; }}
  }}
}}
"""


class TLSFront:
    def __init__(self, directory, upstream_port):
        self.directory = pathlib.Path(directory)
        shutil.rmtree(self.directory, ignore_errors=True)  # an earlier run's logs and certificates
        self.directory.mkdir(parents=True)
        make_certificates(self.directory)
        # nginx's workers run as nobody when it runs as root: its temp folders must be theirs.
        (self.directory / "tmp").mkdir(exist_ok=True)
        os.chmod(self.directory / "tmp", 0o777)
        self.ca = str(self.directory / "ca.pem")
        for _attempt in range(3):
            self.ports = {}
            for name in NAMES:
                self.ports[name] = free_port(taken=set(self.ports.values()))
            config = self.directory / "nginx.conf"
            config.write_text(CONFIG.format(d=self.directory, upstream=upstream_port, **self.ports))
            log = open(self.directory / "nginx.out", "w")
            self.process = subprocess.Popen(
                ["nginx", "-p", str(self.directory), "-c", str(config)], stdout=log,
                stderr=subprocess.STDOUT)
            if self._wait_listening():
                return
            self.stop()
        raise RuntimeError("nginx did not start: " + (self.directory / "nginx.out").read_text())

    def _wait_listening(self, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False  # a port was taken meanwhile: try others
            try:
                for port in self.ports.values():
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    def url(self, name, host="127.0.0.1"):
        return f"https://{host}:{self.ports[name]}"

    def log(self, name=None):
        """Access-log lines (all, or those of one server block), waiting a moment for nginx to
        write the last ones."""
        time.sleep(0.2)
        path = self.directory / "access.log"
        lines = path.read_text().splitlines() if path.exists() else []
        if name is None:
            return lines
        return [line for line in lines if line.startswith(f"{self.ports[name]} ")]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
