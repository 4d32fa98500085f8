from main import serial_scan, depth
