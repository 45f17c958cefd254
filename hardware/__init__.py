"""The physical side: camera sources behind one interface, GPIO buttons and LED, checks.

Cameras: `open_camera(spec)` (hardware.factory) gives a CameraSource; GPIO: hardware.buttons and
hardware.led; `tabletop doctor` checks: hardware.checks. Nothing here imports cv2, pygame,
gpiozero or picamera2 at import time.
"""
